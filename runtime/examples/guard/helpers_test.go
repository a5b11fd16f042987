package main

import (
	"errors"

	"k8s.io/apimachinery/pkg/types"
)

var errBoom = errors.New("etcd is having a bad day")

func typesUID(s string) types.UID { return types.UID(s) }
