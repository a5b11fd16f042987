package main

import "time"

// expectationTTL is how long a creation is awaited in the cache before the
// controller acts again regardless (kubernetes uses 5 minutes).
const expectationTTL = 5 * time.Minute
