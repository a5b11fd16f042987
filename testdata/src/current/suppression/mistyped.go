package suppression

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// The known half of a list suppresses; the unknown half is reported.
func halfKnown(informer cache.SharedIndexInformer, q workqueue.TypedRateLimitingInterface[string]) {
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) {
			pod := obj.(*v1.Pod) /* want `ctrllint:ignore directive names unknown analyzer "nosuch": it suppresses nothing for it \(analyzers: tombstone, ` */ //ctrllint:ignore tombstone,nosuch the test informer never re-lists
			q.Add(pod.Name)
		},
	})
}

var (
	unknown   = 1  /* want `ctrllint:ignore directive names unknown analyzer "nosuch": it suppresses nothing` */                                                                                         //ctrllint:ignore nosuch why
	wrongCase = 2  /* want `names unknown analyzer "Tombstone" \(did you mean "tombstone"\?\)` */                                                                                                        //ctrllint:ignore Tombstone why
	typo      = 3  /* want `ctrllint:file-ignore directive names unknown analyzers "tombstoen" \(did you mean "tombstone"\?\), "Forgett" \(did you mean "forget"\?\): it suppresses nothing for them` */ //ctrllint:file-ignore tombstoen,Forgett why
	bare      = 4  /* want `ctrllint:ignore directive names no analyzer: write //ctrllint:ignore NAME\[,NAME...\] reason` */                                                                             //ctrllint:ignore
	spaced    = 5  /* want `comment "// ctrllint:ignore" is not a ctrllint directive \(directives have no space after //\): it suppresses nothing; write //ctrllint:ignore` */                           // ctrllint:ignore tombstone why
	block     = 6  /* want `comment "/\*ctrllint:ignore" is not a ctrllint directive \(directives are // line comments\): it suppresses nothing; write //ctrllint:ignore` */                             /*ctrllint:ignore tombstone why*/
	upper     = 7  /* want `comment "//CtrlLint:ignore" is not a ctrllint directive \(directives are lower case\)` */                                                                                    //CtrlLint:ignore tombstone why
	upperVerb = 8  /* want `"//ctrllint:Ignore" is not a ctrllint directive \(directives are lower case\)` */                                                                                            //ctrllint:Ignore tombstone why
	fileUpper = 9  /* want `"//ctrllint:File-Ignore" is not a ctrllint directive \(directives are lower case\): it suppresses nothing; write //ctrllint:file-ignore` */                                  //ctrllint:File-Ignore tombstone why
	verbTypo  = 10 /* want `unknown ctrllint directive "//ctrllint:ignor": it suppresses nothing \(did you mean //ctrllint:ignore\?\)` */                                                                //ctrllint:ignor tombstone why
	verbLong  = 11 /* want `unknown ctrllint directive "//ctrllint:ignored"` */                                                                                                                          //ctrllint:ignored tombstone why
	noVerb    = 12 /* want `unknown ctrllint directive "//ctrllint:disable": it suppresses nothing \(directives are //ctrllint:ignore and //ctrllint:file-ignore\)` */                                   //ctrllint:disable tombstone why
	self      = 13 /* want `findings of suppression can only be suppressed for a whole file` */                                                                                                          //ctrllint:ignore suppression why
	noReason  = 14 /* want `ctrllint:file-ignore directive for suppression needs a reason` */                                                                                                            //ctrllint:file-ignore suppression
)
