/* Fuzz target: the trajectory reader (crafter-trajectory(5)) over any
 * bytes: the header, the index or the scan for chunks, and every episode's
 * steps with and without its observations. */
#include <stdlib.h>

#include "fuzz.h"
#include "run/traj.h"
#include "run/traj_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char error[256];
  crafter_traj_reader *reader = crafter_traj_open_memory(data, size, error, sizeof error);
  if (!reader) return 0;
  (void)crafter_traj_status_of(reader);
  size_t count = crafter_traj_episode_count(reader);
  for (size_t index = 0; index < count && index < 64; index++) {
    (void)crafter_traj_episode_at(reader, index);
    crafter_traj_data episode;
    if (crafter_traj_read_episode(reader, index, &episode, error, sizeof error) == 0)
      crafter_traj_data_free(&episode);
    if (crafter_traj_read_steps(reader, index, &episode, error, sizeof error) == 0)
      crafter_traj_data_free(&episode);
    uint8_t *chunk;
    size_t bytes;
    if (crafter_traj_read_chunk(reader, index, &chunk, &bytes, error, sizeof error) == 0)
      free(chunk);
  }
  crafter_traj_close(reader);
  return 0;
}
