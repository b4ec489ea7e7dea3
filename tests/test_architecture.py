"""The package reads top-down: no two modules import each other, counting the imports inside
functions (the usual way a cycle is patched) and not counting ``if TYPE_CHECKING:`` blocks."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "tkgqa_ray"

# No known cycles are left (issue #13); keep the set for a cycle someone must accept knowingly.
KNOWN: set[tuple[str, str]] = set()


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for p in root.rglob("*.py"):
        parts = p.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def import_edges(root: Path) -> dict[str, set[str]]:
    mods = _modules(root)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                     and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}  # fmt: skip
        for node in ast.walk(tree):
            if id(node) in type_only or not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
                    pkg = pkg[: len(pkg) - node.level + 1]
                    base = ".".join([*pkg, base] if base else pkg)
                targets = [base, *(f"{base}.{a.name}" for a in node.names)]
            for t in targets:
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != mod and t != root.name and not mod.startswith(t + "."):
                    edges[mod].add(t)
    return edges


def two_cycles(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {tuple(sorted((a, b))) for a, outs in edges.items() for b in outs if a in edges.get(b, ())}


def test_no_module_pair_imports_each_other():
    assert two_cycles(import_edges(PKG)) - KNOWN == set()


# The evidence layer sits between the method contract and the methods (docs/architecture.md):
# it may use methods/base.py and methods/roles.py, never a method; those two never use it;
# the fact-key codec is a leaf.
METHOD_PACKAGES = ("tkgqa_ray.methods.baselines", "tkgqa_ray.methods.scop", "tkgqa_ray.methods.tccrag",
                   "tkgqa_ray.methods.pok")


def test_retrieval_layer_sits_between_the_method_contract_and_the_methods():
    edges = import_edges(PKG)
    retrieval = {m for m in edges if m == "tkgqa_ray.retrieval" or m.startswith("tkgqa_ray.retrieval.")}
    assert {"tkgqa_ray.retrieval.answers", "tkgqa_ray.retrieval.dense", "tkgqa_ray.retrieval.render"} <= retrieval
    up = {(m, t) for m in retrieval for t in edges[m] if t.startswith(METHOD_PACKAGES)}
    assert up == set(), f"the evidence layer imports a method: {sorted(up)}"
    down = {(m, t) for m in ("tkgqa_ray.methods.base", "tkgqa_ray.methods.roles") for t in edges[m] if t in retrieval}
    assert down == set(), f"the method contract imports the evidence layer: {sorted(down)}"
    assert edges["tkgqa_ray.kg.factkey"] == set()


def test_the_check_sees_a_function_local_import_cycle(tmp_path):
    pkg = tmp_path / "tkgqa_ray"
    (pkg / "kg").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kg" / "__init__.py").write_text("")
    (pkg / "kg" / "table.py").write_text("def f():\n    from .loader import g  # local: patched cycle\n")
    (pkg / "kg" / "loader.py").write_text("from .table import f\nfrom typing import TYPE_CHECKING\n"
                                          "if TYPE_CHECKING:\n    from tkgqa_ray import other\n")
    (pkg / "other.py").write_text("from tkgqa_ray.kg.loader import f\n")
    assert two_cycles(import_edges(pkg)) == {("tkgqa_ray.kg.loader", "tkgqa_ray.kg.table")}
