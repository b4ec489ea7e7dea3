"""SmoothQuant-style rescaling of the fused BERT ONNX graph, so dynamic int8 agrees with fp32.

Why: ONNX Runtime's dynamic int8 quantises each MatMul's *activations* with one scale per
batch tensor. BERT's activations have a few outlier channels (LayerNorm outputs, GELU
outputs) that set that scale, so every other channel keeps only a few int8 levels: with all
MatMuls quantised the top-20 overlap with the fp32 index was 0.89 on real fact texts. Weights
are quantised per output channel and have no such outliers. SmoothQuant (Xiao et al., 2023)
moves the difficulty across: for a MatMul ``Y = X W`` and a per-input-channel scale ``s``,
``Y = (X / s) (s W)``, with ``s_j = max|X_j|^a / max|W_j|^(1-a)`` calibrated on sample texts.
In fp32 the rescaled graph computes the same function (up to float rounding).

Where ``1 / s`` goes (MiniLM / BERT is *post*-LayerNorm: a LayerNorm's output is also the
residual stream, so folding ``1 / s`` into LayerNorm gamma/beta as in pre-LN models would
change the residual; it is not done):

- attention output projection: folded into the V columns (weights and bias) of the fused
  QKV projection, exact because ``softmax(QK^T) V`` is linear in V per channel — free;
- QKV projection (input: the previous LayerNorm's output), FFN-up (LayerNorm output) and
  FFN-down (GELU output, not foldable through GELU): an explicit ``Mul`` by ``1 / s`` in
  front of the MatMul — one cheap elementwise op per MatMul.

The embedding table (``EmbedLayerNormalization``) is left fp32: quantising it alone already
cost 0.025 of top-20 overlap and saves no time (it is a gather). Calibration texts are the
packaged synthetic KG's fact texts (:func:`calibration_texts`): fixed, offline, in the same
``"subject relation object"`` style as real KGs, and independent of the user's KG, so the
exported model is a function of the model files and this recipe only.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

# Bump when anything below changes what the smoothed graph contains (part of the export key).
SMOOTH_RECIPE = {"alpha": 0.75, "calibration": "default-synth-kg", "n_calibration": 2000,
                 "kinds": ["qkv", "attn_out", "ffn_up", "ffn_down"], "weights": "u8",
                 "embedding": "fp32", "version": 1}


def recipe_tag(recipe: dict | None = None) -> str:
    """Short hash of the recipe: part of the exported file's name (the export cache key)."""
    return hashlib.sha256(json.dumps(recipe or SMOOTH_RECIPE, sort_keys=True).encode()).hexdigest()[:10]


def calibration_texts(n: int = SMOOTH_RECIPE["n_calibration"]) -> list[str]:
    """``n`` distinct ``"subject relation object"`` texts of the packaged synthetic KG
    (:data:`tkgqa_ray.data.default.DEFAULT_SYNTH`), evenly spaced in sorted order."""
    from tkgqa_ray.data.default import DEFAULT_SYNTH
    from tkgqa_ray.data.synth import synth_rows
    from tkgqa_ray.kg.table import display

    texts = sorted({f"{display(r[0])} {display(r[1])} {display(r[2])}" for r in synth_rows(DEFAULT_SYNTH)})
    step = max(1, len(texts) // n)
    return texts[::step][:n]


def _targets(graph) -> list[tuple[str, object]]:  # noqa: ANN001
    """(kind, node) of every MatMul / Attention whose weight is a constant, in graph order."""
    inits = {i.name for i in graph.initializer}
    out = []
    for node in graph.node:
        if node.op_type == "Attention" and node.input[1] in inits:
            out.append(("qkv", node))
        elif node.op_type == "MatMul" and len(node.input) == 2 and node.input[1] in inits:
            name = node.name
            kind = ("attn_out" if "attention/output" in name else "ffn_up" if "intermediate" in name
                    else "ffn_down" if "/output/dense" in name else None)
            if kind:
                out.append((kind, node))
    return out


def activation_absmax(model, tensors: Sequence[str], run_batches: Callable) -> dict[str, np.ndarray]:  # noqa: ANN001
    """Per-channel max |x| of ``tensors`` (``[batch, seq, channels]``) over real tokens only
    (padding rows excluded), running the fp32 ``model`` on the batches ``run_batches`` yields."""
    import onnx
    import onnxruntime as ort

    m = onnx.ModelProto()
    m.CopyFrom(model)
    known = {o.name for o in m.graph.output}
    for t in tensors:
        if t not in known:
            m.graph.output.append(onnx.helper.make_tensor_value_info(t, onnx.TensorProto.FLOAT, None))
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    amax: dict[str, np.ndarray] = {}
    for ids, mask in run_batches():
        outs = sess.run(list(tensors), {"input_ids": ids, "attention_mask": mask})
        keep = mask.astype(bool)
        for t, x in zip(tensors, outs):
            a = np.abs(x[keep]).max(axis=0)  # [channels] over real tokens
            amax[t] = a if t not in amax else np.maximum(amax[t], a)
    return amax


def smooth(model, run_batches: Callable, alpha: float = SMOOTH_RECIPE["alpha"]):  # noqa: ANN001
    """A copy of the fused fp32 ``model`` (an ``onnx.ModelProto``) with every QKV / attention
    output / FFN MatMul rescaled as described above; computes the same function in fp32."""
    import onnx
    from onnx import numpy_helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    targets = _targets(g)
    if not targets:
        raise ValueError("no Attention/MatMul with constant weights found: not a fused BERT graph")
    amax = activation_absmax(m, sorted({n.input[0] for _, n in targets}), run_batches)
    inits = {i.name: i for i in g.initializer}
    arrays = {name: numpy_helper.to_array(init).copy() for name, init in inits.items()}
    producer = {o: n for n in g.node for o in n.output}
    new_nodes: dict[int, list] = {}  # insert a Mul before node index i

    for kind, node in targets:
        x, w_name = node.input[0], node.input[1]
        w = arrays[w_name]  # [in, out]
        s = np.power(np.maximum(amax[x], 1e-5), alpha) / np.power(np.maximum(np.abs(w).max(axis=1), 1e-5), 1 - alpha)
        s = np.clip(s, 1e-2, 1e2).astype(np.float32)  # no extreme rescaling of dead channels
        arrays[w_name] = w * s[:, None]
        if kind == "attn_out":  # fold 1/s into the V part of the producing Attention's QKV
            att = producer[x]
            if att.op_type != "Attention":
                raise ValueError(f"attention output {x} is not produced by an Attention node")
            qkv_w, qkv_b = att.input[1], att.input[2]
            hidden = arrays[qkv_w].shape[1] // 3
            if hidden != len(s):
                raise ValueError("QKV layout is not [Q | K | V] of equal width")
            arrays[qkv_w][:, 2 * hidden:] /= s[None, :]
            arrays[qkv_b][2 * hidden:] /= s
        else:  # an explicit Mul by 1/s in front of this node only (x may feed the residual too)
            inv = f"{node.name}_smooth_inv_scale"
            out = f"{node.name}_smooth_input"
            g.initializer.append(numpy_helper.from_array((1.0 / s).astype(np.float32), inv))
            idx = list(g.node).index(node)
            new_nodes.setdefault(idx, []).append(
                onnx.helper.make_node("Mul", [x, inv], [out], name=f"{node.name}_smooth"))
            node.input[0] = out

    changed = {n.input[1] for _, n in targets} | {producer[n.input[0]].input[i] for k, n in targets
                                                  if k == "attn_out" for i in (1, 2)}
    for name in changed:
        inits[name].CopyFrom(numpy_helper.from_array(arrays[name].astype(np.float32), name))
    nodes = list(g.node)
    del g.node[:]
    for i, n in enumerate(nodes):
        g.node.extend(new_nodes.get(i, []))
        g.node.append(n)
    return m


def smooth_file(src: Path, out: Path, run_batches: Callable, alpha: float = SMOOTH_RECIPE["alpha"]) -> None:
    import onnx

    onnx.save(smooth(onnx.load(str(src)), run_batches, alpha), str(out))
