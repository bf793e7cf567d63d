package pkg

import "fmt"

// Server serves requests.
// It is the fixture's class.

// Padding keeps the line numbers the fixture graph records.
// (Server starts on line 10.)
type Server struct {
	name string
}

// Serve handles one request.
func (s *Server) Serve() error {
	fmt.Println(s.name)
	return nil
}

// Close stops the server.
func (s *Server) Close() {
	s.name = ""
}

// NewServer builds a Server.
func NewServer() *Server {
	return &Server{name: "x"}
}

// filler line 30
// filler line 31
// filler line 32
// filler line 33
// filler line 34
// filler line 35
// filler line 36
// filler line 37
// filler line 38
// filler line 39
// filler line 40
// filler line 41
// filler line 42
// filler line 43
// filler line 44
// filler line 45
// filler line 46
// filler line 47
// filler line 48
// filler line 49
// filler line 50
// filler line 51
// filler line 52
// filler line 53
// filler line 54
// filler line 55
// filler line 56
// filler line 57
// filler line 58
// filler line 59
// filler line 60
