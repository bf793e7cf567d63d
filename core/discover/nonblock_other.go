//go:build !unix

package discover

const oNonBlock = 0
