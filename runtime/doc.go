// Package runtime is ctrllint's reference controller runtime: the patterns
// ctrllint's analyzers ask for, as a small library to import instead of
// copying sample-controller. Each sub-package is one pattern:
//
//   - handler: informer events to queue keys, tombstones handled (tombstone);
//   - controller: the worker loop — Get/Done/Forget discipline, bounded
//     retries, panic recovery, a cache-sync gate, draining shutdown, leader
//     election (forget, queuedone);
//   - fresh: the one sanctioned uncached read, read-modify-write under
//     retry.RetryOnConflict (listerbypass);
//   - ownership: controller references that refuse shared objects, adoption
//     of orphans, and expectations for a lagging cache (sharedowner);
//   - example: a controller built from all of them.
//
// docs/runtime.md explains each pattern. ctrllint reports nothing here.
package runtime
