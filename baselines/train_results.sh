#!/bin/sh
# Trains the baselines behind baselines/RESULTS.md, three seeds each, and writes the page.
#
#   sh baselines/train_results.sh [RUNS_DIR]      (from the repository root, train extra installed)
#
# Each run is one `cwgym train` command (recorded in its train.json), with one torch thread;
# JOBS runs (default 2, one per core of the reference 2-core machine) train at a time. The
# page is made by `python -m baselines.make_results` from the run directories, never by
# hand: runs that differ only in their seed become one row, their mean and range. Set CWGYM
# to another command (e.g. "python -m cwgym.cli") to train with a source checkout.
set -eu
RUNS=${1:-runs/results}
CWGYM=${CWGYM:-cwgym}
JOBS=${JOBS:-2}
SEEDS=${SEEDS:-0 1 2}
mkdir -p "$RUNS"

COMMON="--n-envs 8 --torch-threads 1 --eval-episodes 200 --quiet"
jobs_file="$RUNS/jobs.txt"
: > "$jobs_file"
for seed in $SEEDS; do
    # One-step desktop tasks: PPO from scratch on the element table.
    for task in open-app close-window maximize-window; do
        echo "--algo ppo --env cwgym/easy-$task-v1 --steps 50000 --seed $seed --out $RUNS/ppo-$task-s$seed" >> "$jobs_file"
    done
    echo "--algo ppo --env cwgym/easy-open-desktop-file-v1 --steps 100000 --seed $seed --out $RUNS/ppo-open-desktop-file-s$seed" >> "$jobs_file"
    # A four-step task (open Files, the Trash, the file, Restore), for what PPO from scratch
    # does not learn in the same budget, then with the phases reward and an entropy bonus.
    echo "--algo ppo --env cwgym/easy-restore-trash-v1 --steps 300000 --seed $seed --out $RUNS/ppo-restore-trash-s$seed" >> "$jobs_file"
    echo "--algo ppo --env cwgym/easy-restore-trash-v1 --reward phases --param ent_coef=0.05 --steps 300000 --seed $seed --out $RUNS/ppo-restore-trash-phases-s$seed" >> "$jobs_file"
    # The four-step tasks again, warm-started by cloning the expert's play on 100 training seeds.
    for task in restore-trash new-folder; do
        echo "--algo ppo --env cwgym/easy-$task-v1 --bc-episodes 100 --steps 100000 --seed $seed --out $RUNS/bc-ppo-$task-s$seed" >> "$jobs_file"
    done
done
# shellcheck disable=SC2086
xargs -P "$JOBS" -L 1 sh -c "$CWGYM train $COMMON \"\$@\" > /dev/null" train < "$jobs_file"

runs=""
for name in ppo-open-app ppo-close-window ppo-maximize-window ppo-open-desktop-file ppo-restore-trash \
            ppo-restore-trash-phases bc-ppo-restore-trash bc-ppo-new-folder; do
    for seed in $SEEDS; do runs="$runs $RUNS/$name-s$seed"; done
done
# shellcheck disable=SC2086
python -m baselines.make_results $runs --notes baselines/results-notes.md --out baselines/RESULTS.md
