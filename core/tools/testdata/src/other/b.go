package other

type Other struct{}

func (Other) Serve() { evil() }
