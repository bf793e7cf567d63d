package main

import "example/pkg"

func main() {
	s := pkg.NewServer()
	s.Serve()
}
