#include "base/params.h"

#include <stdio.h>

#include "crafter/ids.h"

void crafter_params_default(crafter_params *params) {
  params->area[0] = params->area[1] = 64;
  params->view[0] = params->view[1] = 9;
  params->size[0] = params->size[1] = 64;
  params->reward = 1;
  params->length = 10000;
  params->seed = 0;
}

int crafter_params_item_rows(int view_width) {
  return (CRAFTER_ITEM_COUNT + view_width - 1) / view_width;
}

int crafter_params_check(const crafter_params *params, char *error, size_t error_size) {
  const int limit = 4096;
  if (params->area[0] < 1 || params->area[1] < 1 || params->area[0] > limit ||
      params->area[1] > limit) {
    snprintf(error, error_size, "area must be between 1x1 and %dx%d", limit, limit);
    return -1;
  }
  if (params->view[0] < 1 || params->view[1] < 1 || params->view[0] > limit ||
      params->view[1] > limit) {
    snprintf(error, error_size, "view must be between 1x1 and %dx%d", limit, limit);
    return -1;
  }
  int rows = crafter_params_item_rows(params->view[0]);
  if (params->view[1] <= rows) {
    snprintf(error, error_size,
             "a view %d wide gives %d rows to the inventory, so it must be more than %d high",
             params->view[0], rows, rows);
    return -1;
  }
  if (params->size[0] < params->view[0] || params->size[1] < params->view[1] ||
      params->size[0] > limit || params->size[1] > limit) {
    snprintf(error, error_size, "size must be at least the view (%dx%d) and at most %dx%d",
             params->view[0], params->view[1], limit, limit);
    return -1;
  }
  if (params->length < 0) {
    snprintf(error, error_size, "length must be 0 (no limit) or positive");
    return -1;
  }
  return 0;
}
