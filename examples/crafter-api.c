/* crafter-api: a C program on libcrafter's public interface, as make
 * install leaves it (<crafter/crafter.h>, pkg-config crafter):
 *
 *   cc -o crafter-api crafter-api.c $(pkg-config --cflags --libs crafter)
 *   shuf -r -i 0-16 -n 3000 | ./crafter-api 1 episode.traj
 *
 * Plays an episode of Crafter of the seed given with the actions of
 * standard input (a number a line), until it ends or the actions run out,
 * printing "t reward done" at every step as crafter-step's records say
 * them.  It draws every observation at every step (the pixels, the
 * semantic map, the symbolic vector, the text), saves the game's state at
 * step 100 and plays a copy loaded from it beside the game to the end,
 * and records the episode to a trajectory file (cut short if the actions
 * ran out).  At the end it prints where the player
 * stands, what it holds and has achieved, the CRC-32 of the last picture
 * (crafter-step --obs pixels --info full calls it obs_crc) and the first
 * line of the last text; then it reads the file back and prints the
 * episode's summary and the Crafter score of its achievements. */
#include <crafter/crafter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int fail(const char *what, const char *error) {
  fprintf(stderr, "crafter-api: %s: %s\n", what, error);
  return 1;
}

/* Reads the file back: the episode's summary and its Crafter score. */
static int read_back(const char *path) {
  char error[512];
  crafter_traj_reader *reader = crafter_traj_open(path, error, sizeof error);
  if (!reader) return fail(path, error);
  crafter_traj_summary summary;
  if (crafter_traj_episode_count(reader) != 1 || crafter_traj_summary_of(reader, 0, &summary) < 0) {
    crafter_traj_close(reader);
    return fail(path, "not one episode");
  }
  uint8_t *actions = malloc((size_t)summary.steps + 1);
  int read = actions && crafter_traj_read_actions(reader, 0, actions, (size_t)summary.steps,
                                                   error, sizeof error) == 0;
  printf("file: agent %s, %ld steps, return %.1f, end %d, first action %d\n",
         crafter_traj_agent(reader), summary.steps, summary.reward, summary.end,
         read && summary.steps > 0 ? actions[0] : -1);
  free(actions);
  crafter_traj_close(reader);
  if (!read) return fail(path, error);
  /* One episode: each achievement's success rate is 0 or 100 percent. */
  double rates[CRAFTER_ACHIEVEMENT_COUNT];
  for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
    rates[a] = summary.achievements[a] > 0 ? 100.0 : 0.0;
  printf("score: %.17g\n", crafter_score_of_rates(rates, CRAFTER_ACHIEVEMENT_COUNT));
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: crafter-api SEED FILE < actions\n");
    return 2;
  }
  char error[512];
  crafter_params params;
  crafter_params_default(&params);
  params.seed = strtoll(argv[1], NULL, 10);
  crafter_env *env = crafter_env_new(&params, NULL, error, sizeof error);
  crafter_textures *textures = crafter_textures_new(NULL, error, sizeof error);
  crafter_renderer *renderer = textures ? crafter_renderer_new(textures, &params, error,
                                                               sizeof error) : NULL;
  if (!env || !renderer) return fail("cannot play", error);
  size_t pixel_bytes = (size_t)params.size[0] * (size_t)params.size[1] * 3;
  size_t cells = (size_t)params.area[0] * (size_t)params.area[1];
  uint8_t *pixels = malloc(pixel_bytes), *semantic = malloc(cells);
  float *symbolic = malloc(crafter_symbolic_size(1) * sizeof(float));
  char text[4096];
  if (!pixels || !semantic || !symbolic) return fail("cannot play", "out of memory");
  crafter_renderer_attach(renderer, env, pixels); /* before the first reset */

  crafter_recording *recording = crafter_recording_open(argv[2], env, NULL, "crafter-api", error,
                                                        sizeof error);
  if (!recording) return fail(argv[2], error);
  if (crafter_env_reset(env) != 0) return fail("reset", "out of memory");
  if (crafter_recording_start(recording, env, error, sizeof error) < 0) return fail(argv[2], error);

  crafter_env *copy = NULL; /* loaded from the state saved at step 100 */
  long same = 0, differ = 0;
  crafter_step_result result = {0};
  int action;
  for (long t = 1; !result.done && scanf("%d", &action) == 1; t++) {
    crafter_env_step(env, action, &result);
    printf("%ld %.1f %d\n", t, result.reward, result.done);
    if (crafter_recording_step(recording, env, &action, &result, error, sizeof error) < 0)
      return fail(argv[2], error);
    crafter_env_semantic(env, 0, semantic);
    crafter_render_symbolic(env, 0, symbolic);
    crafter_render_text(env, 0, text, sizeof text);
    if (copy) {
      crafter_step_result again;
      crafter_env_step(copy, action, &again);
      int x, y, cx, cy;
      int alike = again.reward == result.reward && again.done == result.done &&
                  crafter_env_position(env, 0, &x, &y) == 0 &&
                  crafter_env_position(copy, 0, &cx, &cy) == 0 && x == cx && y == cy;
      if (alike)
        same++;
      else
        differ++;
    }
    if (t == 100) {
      size_t size = crafter_state_save(env, NULL, 0);
      uint8_t *state = malloc(size);
      if (!state || crafter_state_save(env, state, size) != size) return fail("save", "no memory");
      copy = crafter_env_new(&params, NULL, error, sizeof error);
      if (!copy || crafter_state_load(copy, state, size, error, sizeof error) < 0)
        return fail("load", error);
      free(state);
    }
  }
  if (crafter_recording_close(recording, error, sizeof error) < 0) return fail(argv[2], error);

  int x, y, dx, dy;
  if (crafter_env_position(env, 0, &x, &y) == 0 && crafter_env_facing(env, 0, &dx, &dy) == 0)
    printf("pos %d %d facing %d %d sleeping %d\n", x, y, dx, dy, crafter_env_sleeping(env, 0));
  printf("inventory");
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++)
    printf(" %s %d", crafter_item_names[i], crafter_env_inventory(env, 0, i));
  printf("\nachievements");
  for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
    printf(" %s %d", crafter_achievement_names[a], crafter_env_achievement(env, 0, a));
  printf("\npixels %lu\n", crc32(0L, pixels, (uInt)pixel_bytes));
  text[strcspn(text, "\n")] = '\0';
  printf("text %s\n", text);
  printf("state: the copy played %ld steps as the game, %ld otherwise\n", same, differ);

  crafter_env_free(copy);
  crafter_env_free(env);
  crafter_renderer_free(renderer);
  crafter_textures_free(textures);
  free(pixels);
  free(semantic);
  free(symbolic);
  return read_back(argv[2]);
}
