/* render: observations of an env.
 *
 * Pixels: the local view and inventory panel exactly as Crafter renders
 * them, for any view and size: textures scaled by nearest neighbour as
 * Pillow does, daylight, the night noise and vignette, the grey tint of
 * sleep, the inventory counts.  With Crafter's own textures the bytes equal
 * the reference's.  Rendering at night draws from the world's generator,
 * as in the reference, so a renderer attaches itself to its env and is
 * called at every reset and step. */
#ifndef CRAFTER_RENDER_H
#define CRAFTER_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "env.h"
#include "textures.h"

typedef struct crafter_renderer crafter_renderer;

/* Makes a renderer for envs of these parameters; NULL with a reason. */
crafter_renderer *crafter_renderer_new(const crafter_textures *textures,
                                       const crafter_params *params, char *error,
                                       size_t error_size);
void crafter_renderer_free(crafter_renderer *renderer);

/* Attaches the renderer to an env: from then on every reset and step
 * renders into `pixels` (size[1] rows of size[0] RGB pixels), consuming
 * the night noise draws as the reference does.  One renderer serves one
 * env. */
void crafter_renderer_attach(crafter_renderer *renderer, crafter_env *env, uint8_t *pixels);

/* Renders the env's current state into pixels, drawing the night noise
 * from its generator when it is night.  Called by the env once attached;
 * call it yourself only for an env without a renderer attached. */
void crafter_render_pixels(crafter_renderer *renderer, crafter_env *env, uint8_t *pixels);

#endif
