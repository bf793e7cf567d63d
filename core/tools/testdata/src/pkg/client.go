package pkg

func handle() {
	var s Server
	s.Serve()
}
