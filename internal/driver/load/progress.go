package load

import "sync"

// Progress counts the packages decoded so far.
type Progress struct {
	mu       sync.Mutex
	cond     sync.Cond
	n        int
	finished bool
}

func NewProgress() *Progress {
	p := &Progress{}
	p.cond.L = &p.mu
	return p
}

// Advance counts one more package decoded.
func (p *Progress) Advance() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
	p.cond.Broadcast()
}

// Finish says that no more packages will be decoded.
func (p *Progress) Finish() {
	p.mu.Lock()
	p.finished = true
	p.mu.Unlock()
	p.cond.Broadcast()
}

// Wait waits until n packages are decoded, and reports whether they were:
// decoding stops early when the run is cancelled.
func (p *Progress) Wait(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.n < n && !p.finished {
		p.cond.Wait()
	}
	return p.n >= n
}
