"""The workload planner (issue 28): will a model fit this machine's GPUs, how fast will it run, and what does one
job cost here and in the cloud. Pure Python: may import costs, rules, catalog, model and files, never gui or cli."""

from rigplan.workload.hardware import GpuSpec, Hardware, build_hardware, gpu_spec, offer_hardware, table_gpu
from rigplan.workload.models import ModelSpec, WorkloadError, bundled_models, find_model, load_config
from rigplan.workload.plan import Estimate, estimate, to_json

__all__ = [
    "Estimate",
    "GpuSpec",
    "Hardware",
    "ModelSpec",
    "WorkloadError",
    "build_hardware",
    "bundled_models",
    "estimate",
    "find_model",
    "gpu_spec",
    "load_config",
    "offer_hardware",
    "table_gpu",
    "to_json",
]
