// Package versioned stands for a clientset client-gen generates for custom
// resources: NewForConfig returning a *Clientset with Discovery().
package versioned

import (
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

type Interface interface {
	Discovery() discovery.DiscoveryInterface
}

type Clientset struct {
	*discovery.DiscoveryClient
}

func (c *Clientset) Discovery() discovery.DiscoveryInterface { return c.DiscoveryClient }

func NewForConfig(c *rest.Config) (*Clientset, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(c)
	if err != nil {
		return nil, err
	}
	return &Clientset{DiscoveryClient: dc}, nil
}
