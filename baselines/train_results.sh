#!/bin/sh
# Trains the baselines behind baselines/RESULTS.md and writes the page from the runs.
#
#   sh baselines/train_results.sh [RUNS_DIR]      (from the repository root, train extra installed)
#
# Each run is one `cwgym train` command (recorded in its train.json); the page is made by
# `python -m baselines.make_results` from the run directories, never by hand. Set CWGYM to
# another command (e.g. "python -m cwgym.cli") to train with a source checkout.
set -eu
RUNS=${1:-runs/results}
CWGYM=${CWGYM:-cwgym}
mkdir -p "$RUNS"

# One-step desktop tasks: PPO from scratch on the element table.
for task in open-app close-window maximize-window; do
    $CWGYM train --algo ppo --env "cwgym/easy-$task-v0" --steps 50000 --n-envs 8 --seed 0 \
        --eval-episodes 200 --out "$RUNS/ppo-$task" --quiet
done
$CWGYM train --algo ppo --env cwgym/easy-open-desktop-file-v0 --steps 100000 --n-envs 8 --seed 0 \
    --eval-episodes 200 --out "$RUNS/ppo-open-desktop-file" --quiet

# A four-step task (open Files, the Trash, the file, Restore), for what PPO from scratch
# does not learn in the same budget.
$CWGYM train --algo ppo --env cwgym/easy-restore-trash-v0 --steps 300000 --n-envs 8 --seed 0 \
    --eval-episodes 200 --out "$RUNS/ppo-restore-trash" --quiet
# The same with the phases reward (the Trash on screen pays half) and an entropy bonus.
$CWGYM train --algo ppo --env cwgym/easy-restore-trash-v0 --reward phases --param ent_coef=0.05 --steps 300000 \
    --n-envs 8 --seed 0 --eval-episodes 200 --out "$RUNS/ppo-restore-trash-phases" --quiet

# The four-step tasks again, warm-started by cloning the expert's play on 100 training seeds.
for task in restore-trash new-folder; do
    $CWGYM train --algo ppo --env "cwgym/easy-$task-v0" --bc-episodes 100 --steps 100000 --n-envs 8 --seed 0 \
        --eval-episodes 200 --out "$RUNS/bc-ppo-$task" --quiet
done

python -m baselines.make_results "$RUNS/ppo-open-app" "$RUNS/ppo-close-window" "$RUNS/ppo-maximize-window" \
    "$RUNS/ppo-open-desktop-file" "$RUNS/ppo-restore-trash" "$RUNS/ppo-restore-trash-phases" \
    "$RUNS/bc-ppo-restore-trash" "$RUNS/bc-ppo-new-folder" --notes baselines/results-notes.md --out baselines/RESULTS.md
