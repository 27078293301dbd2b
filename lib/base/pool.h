/* pool: worker threads that share out a job over indices 0..count-1, the
 * caller's thread working too.  Thread t of T takes the indices
 * [t*count/T, (t+1)*count/T), so which thread does an index never changes
 * what it computes: jobs must touch only what belongs to their index. */
#ifndef CRAFTER_POOL_H
#define CRAFTER_POOL_H

typedef struct crafter_pool crafter_pool;
typedef void (*crafter_pool_job)(void *context, int index);

/* A pool of `threads` threads (1: the caller alone, no thread made).
 * NULL when threads or memory cannot be had. */
crafter_pool *crafter_pool_new(int threads);

/* job(context, i) for every i in 0..count-1; returns when all are done. */
void crafter_pool_run(crafter_pool *pool, int count, crafter_pool_job job, void *context);

void crafter_pool_free(crafter_pool *pool);

#endif
