# Shared by the job scripts: submit `tkgqa-ray ...` to the cluster with `ray job submit`.
# RAY_ADDRESS: the cluster's dashboard/job address (default http://127.0.0.1:8265, i.e. after
#   `ray dashboard cluster.yaml` forwards it). DRY_RUN=1 prints the command instead.
# DRY_RUN=1 prints one argument per line (what tests/test_ops_jobs.py checks).
# The working dir (this repo, minus outputs and venvs) is uploaded with each job; model and
# embedding caches stay on the nodes (HF_HOME / TKGQA_CACHE_DIR set by cluster.yaml).
submit() {
  local id="$1"; shift
  local runtime_env
  runtime_env='{"env_vars": {"HF_HOME": "'"${HF_HOME_REMOTE:-/home/ubuntu/model-cache/hf}"'", '
  runtime_env+='"TKGQA_CACHE_DIR": "'"${TKGQA_CACHE_REMOTE:-/home/ubuntu/model-cache/tkgqa}"'", '
  runtime_env+='"TOKENIZERS_PARALLELISM": "false"}, '
  runtime_env+='"excludes": [".venv", "outputs", "multirun", ".git", "*.parquet", ".cache"]}'
  local cmd=(ray job submit --address "${RAY_ADDRESS:-http://127.0.0.1:8265}" --working-dir .
             --runtime-env-json "$runtime_env" --submission-id "$id" ${NO_WAIT:+--no-wait} -- "$@")
  if [[ "${DRY_RUN:-0}" == 1 ]]; then
    printf '%s\n' "${cmd[@]}"
  else
    "${cmd[@]}"
  fi
}
