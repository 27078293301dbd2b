#!/bin/sh
# A random agent in one line of shell: uniform actions into crafter-step,
# then the achievements it unlocked in one episode of seed 1.
#   examples/random-agent.sh [SEED]
seed=${1:-1}
here=$(dirname "$0")
step=$here/../bin/crafter-step
[ -x "$step" ] || step=crafter-step
shuf -r -i 0-16 -n 10000 | "$step" --seed "$seed" | grep -v '"unlocked": \[\]'
