// Package handlerblocking holds fixtures for the handlerblocking analyzer.
package handlerblocking

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Authority is shaped on cert-manager v1.21.2's webhook CA
// (pkg/server/tls/authority/authority.go, DynamicAuthority): its Secret
// informer's handlers call ensureCA, which creates or updates the CA Secret
// through the typed client, on the informer's delivery goroutine.
type Authority struct {
	name   string
	lister corelisters.SecretNamespaceLister
	client corev1client.SecretInterface
	mu     sync.Mutex
}

func (a *Authority) Run(ctx context.Context, cs kubernetes.Interface, ns string) error {
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	informer := factory.Core().V1().Secrets().Informer()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    a.handleAdd,
		UpdateFunc: a.handleUpdate,
	}); err != nil {
		return err
	}
	a.lister = factory.Core().V1().Secrets().Lister().Secrets(ns)
	a.client = cs.CoreV1().Secrets(ns)
	factory.Start(ctx.Done())
	return nil
}

func (a *Authority) handleAdd(obj any) {
	_ = a.ensureCA(context.Background())
}

func (a *Authority) handleUpdate(_, obj any) {
	_ = a.ensureCA(context.Background())
}

func (a *Authority) ensureCA(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, err := a.lister.Get(a.name) // the cache: silent
	if apierrors.IsNotFound(err) {
		return a.regenerate(ctx, nil)
	}
	if err != nil {
		return err
	}
	if len(s.Data) == 0 {
		return a.regenerate(ctx, s.DeepCopy())
	}
	return nil
}

func (a *Authority) regenerate(ctx context.Context, s *corev1.Secret) error {
	if s == nil {
		s = &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: a.name}}
		_, err := a.client.Create(ctx, s, metav1.CreateOptions{}) // want `Secret client Create API call in the AddFunc handler \(via a.handleAdd → a.ensureCA → a.regenerate\): event handlers run on the informer's delivery goroutine, so every later event of this handler \(and, at start, its cache sync\) waits for the API server's answer; enqueue a key and make the call in a worker`
		return err
	}
	s.Data = map[string][]byte{"ca.crt": nil}
	_, err := a.client.Update(ctx, s, metav1.UpdateOptions{}) // want `Secret client Update API call in the AddFunc handler \(via a.handleAdd → a.ensureCA → a.regenerate\)`
	return err
}
