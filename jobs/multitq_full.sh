#!/usr/bin/env bash
# Full MultiTQ test-split evaluation (54,584 questions) of one method x backbone on the cluster.
#
#   jobs/multitq_full.sh [METHOD] [BACKBONE] [HYDRA_OVERRIDES...]
#   jobs/multitq_full.sh scop qwen2.5-14b run.num_workers=16
#
# MULTITQ_ROOT: the MultiTQ release on the cluster nodes (ROOT/kg/full.txt, ROOT/questions/test.json).
# RUNS_DIR: where run dirs go on the head node (the driver runs there and is the only writer).
# Rerunning the same command resumes the same run dir; add run.retry_failed=true to redo error rows.
set -euo pipefail
cd "$(dirname "$0")/.."
source jobs/_submit.sh
METHOD="${1:-scop}"; BACKBONE="${2:-qwen2.5-14b}"; shift $(( $# < 2 ? $# : 2 ))
ROOT="${MULTITQ_ROOT:-/home/ubuntu/data/MultiTQ}"
OUT="${RUNS_DIR:-/home/ubuntu/runs}/multitq-test/${METHOD}__${BACKBONE}"
submit "multitq-${METHOD}-${BACKBONE}-$(date +%Y%m%d-%H%M%S)" \
  tkgqa-ray run dataset=multitq "dataset.root=${ROOT}" "method=${METHOD}" "backbone=${BACKBONE}" \
  "run.output_dir=${OUT}" run.num_workers=16 run.batch_size=32 store.num_shards=4 \
  embeddings.encoder=BAAI/bge-m3 embeddings.device=cuda "$@"
