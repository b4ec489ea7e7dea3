#!/usr/bin/env bash
# Backbone comparison sweep: one method over several backbones (Hydra multirun), one run dir
# per job, then a merged comparison (Markdown table with stderr, CSV/parquet, per-type charts)
# in SWEEP_DIR/comparison/ written by the sweep callback.
#
#   jobs/backbone_sweep.sh [METHOD] [BACKBONES] [HYDRA_OVERRIDES...]
#   jobs/backbone_sweep.sh scop qwen2.5-7b,qwen2.5-14b,llama3.1-8b run.limit=5000
#
# Rebuild the comparison later from the run dirs: tkgqa-ray report SWEEP_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
source jobs/_submit.sh
METHOD="${1:-scop}"; BACKBONES="${2:-qwen2.5-7b,qwen2.5-14b,llama3.1-8b}"; shift $(( $# < 2 ? $# : 2 ))
ROOT="${MULTITQ_ROOT:-/home/ubuntu/data/MultiTQ}"
SWEEP="${RUNS_DIR:-/home/ubuntu/runs}/sweeps/${METHOD}-backbones"
submit "sweep-${METHOD}-$(date +%Y%m%d-%H%M%S)" \
  tkgqa-ray run -m dataset=multitq "dataset.root=${ROOT}" "method=${METHOD}" "backbone=${BACKBONES}" \
  "hydra.sweep.dir=${SWEEP}" run.num_workers=16 run.batch_size=32 store.num_shards=4 \
  embeddings.encoder=BAAI/bge-m3 embeddings.device=cuda "$@"
