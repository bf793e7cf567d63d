package extract

import "runtime"

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
