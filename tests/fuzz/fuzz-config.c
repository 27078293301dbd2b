/* Fuzz target: the YAML configuration reader (crafter-config(5)), then the
 * range checks on whatever it accepted. */
#include "fuzz.h"
#include "game/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static crafter_config config; /* large; one call at a time */
  char error[512];
  crafter_config_default(&config);
  if (crafter_config_load_string((const char *)data, size, "fuzz.yaml", &config, error,
                                 sizeof error) == 0)
    (void)crafter_config_check(&config, error, sizeof error);
  return 0;
}
