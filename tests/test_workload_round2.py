"""Workload planner, round two (issue 39): engines, tensor parallelism, real weight formats, optimizers and offload,
LoRA options, config key families, KV cache by architecture, serving questions, nodes and the reverse questions --
through the CLI's JSON where a user meets them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.model.workload import Engine, Strategy, Task, Weights, WorkloadSpec
from rigplan.workload import Hardware, estimate, find_model, table_gpu
from rigplan.workload.memory import GIB, Setup, memory, weight_bytes
from rigplan.workload.models import model_from_config

ROOT = Path(__file__).resolve().parents[1]
BUILD = str(ROOT / "examples" / "2x-rtx-4090.rigplan")


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code = run_cli(["workload", *args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def cli_err(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = run_cli(["workload", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_the_engine_sets_the_loss_memory_and_unsloth_keeps_checkpoints_in_ram(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = (BUILD, "--model", "llama-3.1-8b", "--task", "qlora", "--seq", "8192", "--gpus", "1")
    hf = cli_json(capsys, *base)
    tt = cli_json(capsys, *base, "--engine", "torchtune")
    us = cli_json(capsys, *base, "--engine", "unsloth")
    assert hf["engine"] == "hf" and tt["engine"] == "torchtune"
    # transformers' fp32 loss: 16 bytes per vocabulary entry per token, 8192 x 128256 x 16 = 15.7 GiB more than none
    assert hf["breakdown"]["activations"] - us["breakdown"]["activations"] > 15
    assert hf["breakdown"]["activations"] > tt["breakdown"]["activations"] > us["breakdown"]["activations"]
    assert us["host_ram_gb"] == pytest.approx(32 * 2 * 4096 * 8192 / GIB, rel=0.01) and hf["host_ram_gb"] == 0
    assert any("system RAM" in n for n in us["notes"])
    assert "training engines" in cli_err(capsys, *base, "--engine", "llama.cpp")


def test_tensor_parallel_reads_a_share_of_the_weights_per_gpu_and_pays_for_the_link(
    capsys: pytest.CaptureFixture[str],
) -> None:
    split = cli_json(capsys, BUILD, "--model", "llama-2-70b", "--task", "inference", "--weights", "int4", "--seq",
                     "1024", "--engine", "llama.cpp")  # fmt: skip
    tp = cli_json(capsys, BUILD, "--model", "llama-2-70b", "--task", "inference", "--weights", "int4", "--seq",
                  "1024", "--engine", "mlc")  # fmt: skip
    assert split["strategy"] == "split" and tp["strategy"] == "tensor"
    assert split["memory_gb_per_gpu"] == pytest.approx(tp["memory_gb_per_gpu"], rel=0.01)
    assert tp["tokens_per_s"] > 1.4 * split["tokens_per_s"]  # MLC's published 34.5 against llama.cpp's 19
    assert "without peer-to-peer (GeForce)" in tp["basis"] and "all-reduces" in tp["basis"]
    # the same on NVLink costs less than over PCIe through host memory
    m = find_model("llama-2-70b")
    s = Setup(Task.INFERENCE, Weights.INT4, 1024, 1, 2, Strategy.TENSOR, False, Engine.MLC)
    from rigplan.workload.speed import speed

    a100 = table_gpu("A100 80GB SXM4")
    assert a100 is not None
    nv = speed(m, s, Hardware("x", a100, 2, "sxm")).tokens_per_s
    pcie = speed(m, s, Hardware("x", a100, 2, "pcie")).tokens_per_s
    assert nv and pcie and nv > pcie


def test_real_weight_formats_and_the_90_percent_warning(capsys: pytest.CaptureFixture[str]) -> None:
    m = find_model("llama-3.1-70b")
    assert weight_bytes(m, Weights.Q4_K_M) / 1e9 == pytest.approx(43.1, rel=0.01)  # llama.cpp's own figure
    assert weight_bytes(m, Weights.AWQ) < weight_bytes(m, Weights.Q4_K_M) < weight_bytes(m, Weights.Q5_K_M)
    exl = cli_json(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "inference", "--engine", "exllamav2",
                   "--weights", "exl2", "--bpw", "4.65")  # fmt: skip
    assert "EXL2 at 4.65" in exl["weights_format"]
    assert "not a format" in cli_err(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "inference", "--weights",
                                     "q4_k_m", "--engine", "vllm")  # fmt: skip
    assert "--bpw" in cli_err(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "inference", "--bpw", "4")
    # Mistral Small 24B at Q6_K on one 24 GB card: 18.1 GiB of weights plus the cache fill over 90 % of it
    full = cli_json(capsys, BUILD, "--model", "mistral-small-24b", "--task", "inference", "--weights", "q6_k",
                    "--gpus", "1", "--seq", "20480")  # fmt: skip
    assert full["fits"] is True and full["memory_gb_per_gpu"] > 0.9 * 24
    assert any("over 90 %" in n for n in full["notes"])
    fp8 = cli_json(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "inference", "--engine", "vllm", "--weights",
                   "fp8", "--instance", "aws:p3.2xlarge:us-east-1")  # fmt: skip
    assert fp8["fits"] is True and fp8["weights_format"].startswith("FP8")


def test_optimizers_offload_precision_and_lora_options(capsys: pytest.CaptureFixture[str]) -> None:
    m = find_model("llama-3.1-8b")
    base = Setup(Task.FULL, Weights.BF16, 2048, 1, 1, Strategy.REPLICATE, True)
    from dataclasses import replace

    from rigplan.model.workload import Offload, Optimizer, Precision

    adam = memory(m, base).parts["optimizer"]
    assert adam * GIB == pytest.approx(12 * m.params, rel=0.001)  # fp32 master + m + v
    assert memory(m, replace(base, optimizer=Optimizer.ADAMW8BIT)).parts["optimizer"] * GIB == pytest.approx(
        6 * m.params
    )
    assert memory(m, replace(base, precision=Precision.BF16)).parts["optimizer"] * GIB == pytest.approx(4 * m.params)
    off = memory(m, replace(base, offload=Offload.OPTIMIZER))
    assert off.parts["optimizer"] == 0 and off.host_gb == pytest.approx(adam)
    out = cli_json(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "full", "--offload", "optimizer", "--gpus", "1",
                   "--precision", "bf16", "--optimizer", "adamw8bit")  # fmt: skip
    assert out["offload"] == "optimizer" and out["host_ram_gb"] > 10 and "offload moves" in out["basis"]
    assert any("of 128 GB of system RAM" in n for n in out["notes"])  # the build's RAM, checked
    r16 = cli_json(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "lora", "--lora-rank", "64")
    att = cli_json(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "lora", "--lora-rank", "64",
                   "--lora-targets", "attention")  # fmt: skip
    b8 = cli_json(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "lora", "--lora-bits", "8")
    assert r16["lora"] == {"bits": 16, "rank": 64, "targets": "all-linear"}
    assert att["breakdown"]["optimizer"] < r16["breakdown"]["optimizer"]
    assert b8["breakdown"]["weights"] < 0.7 * r16["breakdown"]["weights"]
    assert "applies to lora" in cli_err(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "full", "--lora-rank", "8")
    assert "apply to training" in cli_err(capsys, BUILD, "--model", "llama-3.1-8b", "--task", "inference",
                                          "--optimizer", "sgd")  # fmt: skip


def test_config_key_families_and_kv_cache_by_architecture() -> None:
    # MPT-7B (huggingface.co/mosaicml/mpt-7b config.json): d_model 4096, n_layers 32, n_heads 32, expansion_ratio 4
    mpt = model_from_config({"model_type": "mpt", "d_model": 4096, "n_layers": 32, "n_heads": 32,
                             "expansion_ratio": 4, "vocab_size": 50432, "max_seq_len": 2048}, "mpt")  # fmt: skip
    assert mpt.ffn == 16384 and mpt.mlp_matrices == 2 and mpt.params / 1e9 == pytest.approx(6.65, rel=0.02)
    # Falcon-7B (tiiuae/falcon-7b): multi_query, n_head 71, hidden 4544: 7.2B
    falcon = model_from_config({"model_type": "falcon", "hidden_size": 4544, "n_layer": 32, "n_head": 71,
                                "multi_query": True, "vocab_size": 65024}, "falcon")  # fmt: skip
    assert falcon.kv_heads == 1 and falcon.params / 1e9 == pytest.approx(6.92, rel=0.05)
    # DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): 671B total, 37B active; MLA latent 512 + 64 per layer
    ds = model_from_config({"model_type": "deepseek_v3", "hidden_size": 7168, "num_hidden_layers": 61,
                            "num_attention_heads": 128, "num_key_value_heads": 128, "intermediate_size": 18432,
                            "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1,
                            "num_experts_per_tok": 8, "first_k_dense_replace": 3, "vocab_size": 129280,
                            "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
                            "qk_rope_head_dim": 64, "v_head_dim": 128}, "dsv3")  # fmt: skip
    assert ds.params / 1e9 == pytest.approx(671, rel=0.02) and ds.active_params / 1e9 == pytest.approx(37, rel=0.05)
    assert ds.kv_bytes_per_token() == 61 * 576 * 2
    # Qwen1.5-MoE-A2.7B (Qwen/Qwen1.5-MoE-A2.7B): 14.3B total, 2.7B active
    qm = model_from_config({"model_type": "qwen2_moe", "hidden_size": 2048, "num_hidden_layers": 24,
                            "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632,
                            "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
                            "num_experts": 60, "num_experts_per_tok": 4, "vocab_size": 151936}, "qm")  # fmt: skip
    assert qm.params / 1e9 == pytest.approx(14.3, rel=0.03) and qm.active_params / 1e9 == pytest.approx(2.7, rel=0.1)
    # sliding windows: Gemma 3 keeps 1,024 tokens on 5 layers in 6; Mistral 7B v0.1 4,096 on all
    g3 = find_model("gemma-3-27b")
    assert g3.kv_bytes_for(32768) < 0.25 * g3.kv_bytes_per_token() * 32768
    mis = find_model("mistral-7b")
    assert mis.kv_bytes_for(32768) == mis.kv_bytes_for(4096)
    # hybrid: Jamba has one attention layer in 8
    jamba = model_from_config({"model_type": "jamba", "hidden_size": 4096, "num_hidden_layers": 32,
                               "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
                               "vocab_size": 65536, "attn_layer_period": 8}, "jamba")  # fmt: skip
    assert jamba.kv_bytes_per_token() == 4 * 2 * 1024 * 2


def test_serving_concurrency_kv_quantization_and_the_reverse_questions(capsys: pytest.CaptureFixture[str]) -> None:
    one = cli_json(capsys, BUILD, "--model", "qwen2.5-7b", "--task", "inference", "--engine", "vllm", "--seq", "8192",
                   "--gpus", "1")  # fmt: skip
    many = cli_json(capsys, BUILD, "--model", "qwen2.5-7b", "--task", "inference", "--engine", "vllm", "--seq",
                    "8192", "--concurrent", "8", "--gpus", "1")  # fmt: skip
    q8 = cli_json(capsys, BUILD, "--model", "qwen2.5-7b", "--task", "inference", "--engine", "vllm", "--seq",
                  "8192", "--concurrent", "8", "--kv-bits", "8", "--gpus", "1")  # fmt: skip
    assert many["fits"] is True and many["strategy"] == "replicate"
    assert many["tokens_per_s"] > 4 * one["tokens_per_s"] and many["per_request_tokens_per_s"] < one["tokens_per_s"]
    assert q8["breakdown"]["kv_cache"] == pytest.approx(many["breakdown"]["kv_cache"] / 2, rel=0.01)
    assert one["ttft_s"] > 0 and one["longest_context"] > 100_000
    # the most 8k-token requests that fit: that many fit, one more does not
    most = one["most_requests"]
    fits = cli_json(capsys, BUILD, "--model", "qwen2.5-7b", "--task", "inference", "--engine", "vllm", "--seq", "8192",
                    "--concurrent", str(most), "--gpus", "1")  # fmt: skip
    over = cli_json(capsys, BUILD, "--model", "qwen2.5-7b", "--task", "inference", "--engine", "vllm", "--seq", "8192",
                    "--concurrent", str(most + 1), "--gpus", "1")  # fmt: skip
    assert fits["fits"] is True and over["fits"] is False
    e = estimate(WorkloadSpec(model="llama-3.1-70b", task=Task.INFERENCE, weights=Weights.Q4_K_M),
                 Hardware("1x 4090", table_gpu("L40S") or pytest.fail(), 1, "pcie"))  # fmt: skip
    assert e.reverse["best_weights"] in ("q4_k_m", "q3_k_l") and e.reverse["longest_context"] > 8192
    off = cli_json(capsys, BUILD, "--model", "llama-3.1-70b", "--task", "inference", "--weights", "q4_k_m", "--gpus",
                   "1")  # fmt: skip
    assert 0 < off["cpu_offload"]["gpu_layers"] < 80 and off["cpu_offload"]["tokens_per_s"] < 10
    assert "context of 4096 tokens" in cli_err(
        capsys, BUILD, "--model", "llama-2-7b", "--task", "lora", "--seq", "8192"
    )
    assert "x 1.5 (RoPE scaling)" in cli_err(capsys, BUILD, "--model", "llama-2-7b", "--task", "lora", "--seq", "8192",
                                             "--rope-scaling", "1.5")  # fmt: skip
    ok = cli_json(capsys, BUILD, "--model", "llama-2-7b", "--task", "qlora", "--seq", "8192", "--rope-scaling", "2")
    assert ok["seq"] == 8192


def test_nodes_add_the_network_to_an_instance_question(capsys: pytest.CaptureFixture[str]) -> None:
    one = cli_json(capsys, "--instance", "p4d.24xlarge", "--model", "llama-3.1-8b", "--task", "full")
    two = cli_json(capsys, "--instance", "p4d.24xlarge", "--model", "llama-3.1-8b", "--task", "full", "--nodes", "2")
    assert one["tokens_per_s"] < two["tokens_per_s"] < 2 * one["tokens_per_s"]
    assert "400 Gb/s" in two["basis"]
    assert "instance question" in cli_err(capsys, BUILD, "--model", "llama-3.1-8b", "--nodes", "2")


def test_the_new_options_travel_in_the_build_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from rigplan.files import load

    path = tmp_path / "box.rigplan"
    shutil.copy(BUILD, path)
    saved = cli_json(capsys, str(path), "--model", "qwen2.5-32b", "--task", "inference", "--engine", "vllm",
                     "--weights", "awq", "--concurrent", "4", "--kv-bits", "8", "--save")  # fmt: skip
    text = path.read_text("utf-8")
    assert "engine: vllm" in text and "weights: awq" in text and "concurrent: 4" in text and "kv_bits: 8" in text
    assert "optimizer" not in text and "lora_rank" not in text  # unset options are not written
    w = load(path).workload
    assert w is not None and w.engine is Engine.VLLM and w.weights is Weights.AWQ and w.concurrent == 4
    again = cli_json(capsys, str(path))  # the saved workload, as saved
    assert again["engine"] == "vllm" and again["batch"] == 4 and again["tokens_per_s"] == saved["tokens_per_s"]


def test_fp8_tensor_cores_and_geforce_by_name_not_by_a_shared_number() -> None:
    from rigplan.workload.formats import fp8_native
    from rigplan.workload.parallel import geforce

    native = {"H100 SXM5", "L4", "L40S", "GeForce RTX 4090", "GeForce RTX 5090", "RTX 5000 Ada", "RTX PRO 6000 Server"}
    older = {"A100 80GB SXM4", "GeForce RTX 3090", "Quadro RTX 5000", "RTX A6000", "T4", "V100 SXM2 16GB"}
    assert all(fp8_native(n) for n in native) and not any(fp8_native(n) for n in older)
    assert geforce("GeForce RTX 3090") and geforce("RTX 4090") and not geforce("Quadro RTX 8000")
    assert not geforce("RTX 4000 Ada") and not geforce("RTX A6000")
