#!/usr/bin/env bash
# The run step of the GitHub Action (action.yml): maps the action's inputs to `agc run` options,
# runs the kit, and hands its verdict to the workflow; the kit's exit status is the step's, given
# only once the outputs and the job summary are written.
#
# Reads (set by action.yml from its inputs; a composite action gets no INPUT_* of its own):
#   INPUT_BASE_URL (required), INPUT_PROFILE, INPUT_WAIVERS, INPUT_STRICT_WAIVERS, INPUT_REPORT_DIR, INPUT_BASELINE, INPUT_WORKERS
# and what the runner sets: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP (all optional here, so
# the script also runs on a workstation). Tokens are never inputs: AG_TOKEN, AG_TOKEN_OTHER_USER,
# AG_TOKEN_CHANNEL_A and AG_TOKEN_CHANNEL_B come from the step's `env:`, as the kit reads them.
# Relative paths are the workspace's (the working directory), as `agc run` resolves them.
#
# Writes to GITHUB_OUTPUT: verdict (conformant, non-conformant, incomplete, or `error` when the kit
# wrote no report) and report-dir (absolute). Appends the report's summary.md to GITHUB_STEP_SUMMARY.
# Exits with the kit's status: 0 conformant, 1 non-conformant, 2 incomplete, 3 kit or configuration error,
# 4 conformant but with waivers to update (INPUT_STRICT_WAIVERS=true: a stale or expired waiver).
set -uo pipefail

kit="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

report_dir="${INPUT_REPORT_DIR:-conformance-report}"
case "$report_dir" in
  /*) ;;
  *) report_dir="$PWD/$report_dir" ;;
esac

# The run's private folder (its dataset) goes under the runner's temp folder, emptied after each job.
if [ -n "${RUNNER_TEMP:-}" ]; then
  export TMPDIR="$RUNNER_TEMP"
fi

if [ -z "${INPUT_BASE_URL:-}" ]; then
  echo "conformance action: the base-url input is required (the target's base URL)" >&2
  code=3
elif [ -n "${INPUT_STRICT_WAIVERS:-}" ] && [ "$INPUT_STRICT_WAIVERS" != true ] && [ "$INPUT_STRICT_WAIVERS" != false ]; then
  echo "conformance action: the strict-waivers input is true or false, not ${INPUT_STRICT_WAIVERS}" >&2
  code=3
else
  args=(run --base-url "$INPUT_BASE_URL" --report-dir "$report_dir")
  [ -n "${INPUT_PROFILE:-}" ] && args+=(--profile "$INPUT_PROFILE")
  [ -n "${INPUT_WAIVERS:-}" ] && args+=(--waivers "$INPUT_WAIVERS")
  [ "${INPUT_STRICT_WAIVERS:-}" = true ] && args+=(--strict-waivers)
  [ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
  [ -n "${INPUT_WORKERS:-}" ] && args+=(--workers "$INPUT_WORKERS")
  # No verdict or summary of an earlier run in this folder may pass for this run's.
  rm -f "$report_dir/conformance.json" "$report_dir/summary.md"
  # The kit's summary reporter appends to GITHUB_STEP_SUMMARY by itself; this script does it below
  # (so that a run that wrote no summary still says why), hence the kit runs without the variable.
  env -u GITHUB_STEP_SUMMARY node "$kit/bin/agc.mjs" "${args[@]}"
  code=$?
fi

# The verdict is the report's (a conformant run failed by its waivers, exit 4, included); a kit or configuration error
# (exit 3, or no report) is `error`.
verdict=error
if { [ "$code" -le 2 ] || [ "$code" -eq 4 ]; } && [ -f "$report_dir/conformance.json" ]; then
  read_verdict='const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).verdict; console.log(["conformant", "non-conformant", "incomplete"].includes(v) ? v : "error")'
  verdict="$(node -e "$read_verdict" "$report_dir/conformance.json" 2>/dev/null || echo error)"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  # report-dir is the user's text: written with a random delimiter, so no newline in it adds an output.
  delimiter="agc_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  {
    echo "verdict=$verdict"
    printf 'report-dir<<%s\n%s\n%s\n' "$delimiter" "$report_dir" "$delimiter"
  } >>"$GITHUB_OUTPUT"
fi

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  if [ -f "$report_dir/summary.md" ]; then
    { cat "$report_dir/summary.md"; echo; } >>"$GITHUB_STEP_SUMMARY"
  else
    printf '## Asset-group conformance: %s\n\nThe kit wrote no summary (exit %s): see the step log.\n\n' "$verdict" "$code" >>"$GITHUB_STEP_SUMMARY"
  fi
fi

echo "conformance action: verdict $verdict (exit $code), report in $report_dir"
exit "$code"
