"""The official swebench package's answers, for benchrig's parity test (docs/swebench.md#parity).

Reads a JSON request on stdin, writes the answers as JSON on stdout. The package is installed with
--no-deps: its package __init__s (which import docker, datasets, modal) are not run, and the few
third-party names the modules read import from are stubbed, as nothing here calls them.
"""
import importlib.util
import json
import os
import sys
import tempfile
import types
from pathlib import Path


def load_official():
    root = Path(importlib.util.find_spec("swebench").submodule_search_locations[0])
    for name, sub in (("swebench.harness", "harness"), ("swebench.image_builder", "image_builder")):
        mod = types.ModuleType(name)
        mod.__path__ = [str(root / sub)]
        sys.modules[name] = mod
    stubs = {
        "docker": {"DockerClient": object},
        "docker.errors": {},
        "datasets": {"Dataset": object, "load_dataset": None, "load_from_disk": None},
        "dotenv": {"load_dotenv": lambda *a, **k: None},
        "tqdm": {"tqdm": None},
        "swebench.image_builder.docker_utils": {"list_images": lambda client: set()},
    }
    for name, attrs in stubs.items():
        if name in sys.modules:
            continue
        mod = types.ModuleType(name)
        for k, v in attrs.items():
            setattr(mod, k, v)
        sys.modules[name] = mod


load_official()
import swebench  # noqa: E402
from swebench.harness.grading import get_eval_report, get_logs_eval  # noqa: E402
from swebench.harness.log_parsers import PARSER_REGISTRY  # noqa: E402
from swebench.harness.reporting import make_run_report  # noqa: E402
from swebench.harness.utils import make_test_spec  # noqa: E402
from swebench.image_builder.image_spec import ImageSpec  # noqa: E402
from swebench.types import TestSpec  # noqa: E402
from swebench.utils import get_modified_files  # noqa: E402
from unidiff import PatchSet  # noqa: E402


def spec_of(case):
    inst = case["instance"]
    return TestSpec(
        instance_id=inst["instance_id"],
        image="",
        eval_script_list=[],
        repo=inst.get("repo", ""),
        version=inst.get("version", ""),
        FAIL_TO_PASS=inst["FAIL_TO_PASS"],
        PASS_TO_PASS=inst["PASS_TO_PASS"],
        log_parser=inst["log_parser"],
        eval_type=inst["eval_type"],
    )


def write_log(folder, text):
    path = Path(folder) / "test_output.txt"
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


def grade(case, folder):
    spec = spec_of(case)
    path = write_log(folder, case["log"])
    status_map, found = get_logs_eval(spec, str(path))
    pred = {"instance_id": spec.instance_id, "model_name_or_path": "m", "model_patch": case["model_patch"]}
    report = get_eval_report(spec, pred, str(path), include_tests_status=True)
    parsed = PARSER_REGISTRY[spec.log_parser](case["log"], spec)
    return {"parsed": parsed, "status_map": status_map, "found": found, "report": report}


def raises(case):
    """Where the official parser raises on a log (run_instance then writes no report.json): the exception's name."""
    spec = spec_of(case)
    try:
        PARSER_REGISTRY[spec.log_parser](case["log"], spec)
    except Exception as e:  # noqa: BLE001 - which exception is the answer
        return type(e).__name__
    return None


def run_report(req, folder):
    """make_run_report over report files laid out as the official run writes them."""
    os.chdir(folder)
    run_id = "parity"
    predictions = {p["instance_id"]: p for p in req["predictions"]}
    for iid, outcome in req["outcomes"].items():
        d = Path("logs/run_evaluation") / run_id / predictions[iid]["model_name_or_path"].replace("/", "__") / iid
        d.mkdir(parents=True, exist_ok=True)
        if "report" in outcome:
            (d / "report.json").write_text(outcome["report"])
        if "logs" in outcome:
            (d / "test_output.txt").write_text(outcome["logs"])
        if "instance_log" in outcome:
            (d / "run_instance.log").write_text(outcome["instance_log"])
    path = make_run_report(predictions, [{"instance_id": i} for i in req["dataset"]], run_id, report_dir=folder)
    return json.loads(Path(path).read_text())


def main():
    req = json.load(sys.stdin)
    sys.stdout = sys.stderr  # what the official code prints (make_run_report's summary, maven's warnings)
    out = {"version": swebench.__version__, "cases": {}, "raising": {}, "images": {}, "eval_scripts": {}, "modified_files": {}, "patch_paths": {}}
    for case in req.get("cases", []):
        with tempfile.TemporaryDirectory() as folder:
            out["cases"][case["name"]] = grade(case, folder)
    for case in req.get("raising", []):
        out["raising"][case["name"]] = raises(case)
    for iid in req.get("images", []):
        out["images"][iid] = ImageSpec(instance_id=iid, dockerfile="x", namespace="swebench").name
    for name, inst in req.get("eval_scripts", {}).items():
        out["eval_scripts"][name] = make_test_spec(inst).eval_script
    for name, patch in req.get("patches", {}).items():
        out["modified_files"][name] = get_modified_files(patch)
        out["patch_paths"][name] = [f.path for f in PatchSet(patch)]
    with tempfile.TemporaryDirectory() as folder:
        out["run_report"] = run_report(req["run_report"], folder)
    sys.stdout = sys.__stdout__
    json.dump(out, sys.stdout)


main()
