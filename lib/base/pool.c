#include "base/pool.h"

#include <pthread.h>
#include <stdlib.h>

struct crafter_pool {
  int threads;
  pthread_t *helpers;   /* threads 1..threads-1 */
  int started;          /* helpers running */
  pthread_mutex_t lock;
  pthread_cond_t go, done;
  long generation;      /* bumped for every job handed out */
  int busy;             /* helpers still on the current job */
  int quit;
  crafter_pool_job job;
  void *context;
  int count;
};

typedef struct helper_start {
  crafter_pool *pool;
  int rank;
} helper_start;

static void share(crafter_pool *pool, int rank) {
  long first = (long)pool->count * rank / pool->threads;
  long end = (long)pool->count * (rank + 1) / pool->threads;
  for (long i = first; i < end; i++) pool->job(pool->context, (int)i);
}

/* A step of a few envs takes tens of microseconds, about what a sleeping
 * thread takes to wake: so a thread waiting for the next job, or for the
 * helpers to finish one, first looks again for a short while (SPIN polls)
 * before it sleeps.  The fields polled are written atomically, under the
 * lock as before. */
enum { SPIN = 4000 };

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static void *helper(void *argument) {
  helper_start *start = argument;
  crafter_pool *pool = start->pool;
  int rank = start->rank;
  free(start);
  long seen = 0;
  pthread_mutex_lock(&pool->lock);
  for (;;) {
    if (!pool->quit && pool->generation == seen) {
      pthread_mutex_unlock(&pool->lock);
      for (int k = 0; k < SPIN && !__atomic_load_n(&pool->quit, __ATOMIC_ACQUIRE) &&
                      __atomic_load_n(&pool->generation, __ATOMIC_ACQUIRE) == seen;
           k++)
        relax();
      pthread_mutex_lock(&pool->lock);
    }
    while (!pool->quit && pool->generation == seen) pthread_cond_wait(&pool->go, &pool->lock);
    if (pool->quit) break;
    seen = pool->generation;
    pthread_mutex_unlock(&pool->lock);
    share(pool, rank);
    pthread_mutex_lock(&pool->lock);
    if (__atomic_sub_fetch(&pool->busy, 1, __ATOMIC_RELEASE) == 0)
      pthread_cond_signal(&pool->done);
  }
  pthread_mutex_unlock(&pool->lock);
  return NULL;
}

crafter_pool *crafter_pool_new(int threads) {
  if (threads < 1) return NULL;
  crafter_pool *pool = calloc(1, sizeof *pool);
  if (!pool) return NULL;
  pool->threads = threads;
  if (threads == 1) return pool;
  pool->helpers = calloc((size_t)threads, sizeof *pool->helpers);
  if (!pool->helpers || pthread_mutex_init(&pool->lock, NULL) != 0) {
    free(pool->helpers);
    free(pool);
    return NULL;
  }
  pthread_cond_init(&pool->go, NULL);
  pthread_cond_init(&pool->done, NULL);
  for (int t = 1; t < threads; t++) {
    helper_start *start = malloc(sizeof *start);
    if (!start) break;
    start->pool = pool;
    start->rank = t;
    if (pthread_create(&pool->helpers[t], NULL, helper, start) != 0) {
      free(start);
      break;
    }
    pool->started++;
  }
  if (pool->started != threads - 1) {
    crafter_pool_free(pool);
    return NULL;
  }
  return pool;
}

void crafter_pool_run(crafter_pool *pool, int count, crafter_pool_job job, void *context) {
  pool->job = job;
  pool->context = context;
  pool->count = count;
  if (pool->threads == 1) {
    share(pool, 0);
    return;
  }
  pthread_mutex_lock(&pool->lock);
  __atomic_store_n(&pool->busy, pool->threads - 1, __ATOMIC_RELAXED);
  __atomic_store_n(&pool->generation, pool->generation + 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&pool->go);
  pthread_mutex_unlock(&pool->lock);
  share(pool, 0);
  for (int k = 0; k < SPIN && __atomic_load_n(&pool->busy, __ATOMIC_ACQUIRE) > 0; k++) relax();
  pthread_mutex_lock(&pool->lock);
  while (pool->busy > 0) pthread_cond_wait(&pool->done, &pool->lock);
  pthread_mutex_unlock(&pool->lock);
}

void crafter_pool_free(crafter_pool *pool) {
  if (!pool) return;
  if (pool->threads > 1) {
    pthread_mutex_lock(&pool->lock);
    __atomic_store_n(&pool->quit, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    for (int t = 1; t <= pool->started; t++) pthread_join(pool->helpers[t], NULL);
    pthread_cond_destroy(&pool->go);
    pthread_cond_destroy(&pool->done);
    pthread_mutex_destroy(&pool->lock);
  }
  free(pool->helpers);
  free(pool);
}
