"""Adding a method or a backbone kind is one module + one config file, validated before work.

The plugins here live outside the package, the way a third-party package ships them: a module
in a folder on ``sys.path``, an entry point declaring it (what ``pip install`` writes from the
package's ``pyproject.toml``), and a Hydra config file in a folder added to the search path.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from test_pipeline_methods import CONF_DIR, make_dataset
from tkgqa_ray.backbones import kind as kind_mod
from tkgqa_ray.methods.base import METHODS, method_class
from tkgqa_ray.pipeline.validate import ConfigError, validate_config

TOY_METHOD = '''
from pydantic import Field

from tkgqa_ray.methods.base import Method, Stage
from tkgqa_ray.schema import StrictModel


class Echo(Stage):
    name = "echo"

    def __call__(self, states):
        for st in states:
            st["predictions"] = [st["question"]][: self.ctx.options.get("keep", 1)]
        return states


class ToyOptions(StrictModel):
    keep: int = Field(1, ge=0, description="answers kept")
    fallback_k: int = Field(3, ge=1)


class Toy(Method):
    name = "toy_plugin"
    ablations = ("none", "wo_echo")
    Options = ToyOptions

    def build_stages(self):
        return [] if self.ablation == "wo_echo" else [Echo(self.ctx)]
'''

TOY_KIND = '''
from pydantic import Field

from tkgqa_ray.backbones.kind import BackboneConfig, BackboneKind


class ShoutConfig(BackboneConfig):
    volume: int = Field(3, ge=1, description="how loud")


class Shout(BackboneKind):
    kind = "toy_shout"
    Config = ShoutConfig

    @classmethod
    def build(cls, cfg, cache_dir=None):
        from tkgqa_ray.backbones.symbolic import SymbolicBackbone

        return SymbolicBackbone(cfg.name + "!" * cfg.volume)
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A toy distribution: two modules, their entry points, and a config folder."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "toy_method_plugin.py").write_text(TOY_METHOD)
    (site / "toy_kind_plugin.py").write_text(TOY_KIND)
    info = site / "toy_tkgqa_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-tkgqa-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent("""\
        [tkgqa_ray.methods]
        toy_plugin = toy_method_plugin:Toy

        [tkgqa_ray.backbone_kinds]
        toy_shout = toy_kind_plugin:Shout
        """))
    conf = tmp_path / "conf"
    (conf / "method").mkdir(parents=True)
    (conf / "backbone").mkdir()
    (conf / "method" / "toy_plugin.yaml").write_text("name: toy_plugin\noptions:\n  keep: 1\n")
    (conf / "backbone" / "toy_shout.yaml").write_text("name: shouty\nkind: toy_shout\nvolume: 2\n")
    monkeypatch.syspath_prepend(str(site))
    METHODS.discover(refresh=True)
    kind_mod.KINDS.discover(refresh=True)
    yield conf
    for mod in ("toy_method_plugin", "toy_kind_plugin"):
        sys.modules.pop(mod, None)
    METHODS.unregister("toy_plugin")
    kind_mod.KINDS.unregister("toy_shout")


@pytest.fixture(scope="module")
def ds_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ds")
    make_dataset(root, n_questions=3)
    return root


def _compose(conf: Path, ds_root: Path, out: Path, *overrides: str):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=[
            f"hydra.searchpath=[file://{conf}]", "dataset=multitq", f"dataset.root={ds_root}",
            f"run.output_dir={out}", *overrides,
        ])


def test_a_plugin_method_is_found_lazily_and_its_options_validated(plugin, ds_root, tmp_path):
    assert "toy_plugin" in METHODS.names()
    assert "toy_method_plugin" not in sys.modules  # listed from the entry point, not imported
    cfg = _compose(plugin, ds_root, tmp_path / "out", "method=toy_plugin", "backbone=symbolic")
    conf = validate_config(cfg)
    assert conf.method.options == {"keep": 1}
    assert method_class("toy_plugin").__module__ == "toy_method_plugin"

    bad = _compose(plugin, ds_root, tmp_path / "out", "method=toy_plugin", "backbone=symbolic",
                   "+method.options.fallbak_k=5")
    with pytest.raises(ConfigError) as e:
        validate_config(bad)
    assert e.value.key == "method.options.fallbak_k"
    assert "did you mean 'fallback_k'?" in str(e.value)

    with pytest.raises(ConfigError, match=r"^config error: method\.options\.keep must be an integer >= 0 \(got -1\)"):
        validate_config(_compose(plugin, ds_root, tmp_path / "out", "method=toy_plugin", "backbone=symbolic",
                                 "method.options.keep=-1"))
    # its ablations come from the class too
    validate_config(_compose(plugin, ds_root, tmp_path / "out", "method=toy_plugin", "backbone=symbolic",
                             "ablation=none", "ablation.name=wo_echo"))
    with pytest.raises(ConfigError, match=r"^config error: ablation\.name 'wo_plan' is not an ablation of method 'toy_plugin'"):
        validate_config(_compose(plugin, ds_root, tmp_path / "out", "method=toy_plugin", "backbone=symbolic",
                                 "ablation=wo_plan"))


def test_a_plugin_backbone_kind_is_validated_and_built(plugin, ds_root, tmp_path):
    from tkgqa_ray.backbones.factory import build_backbone

    assert "toy_shout" in kind_mod.kinds()
    assert "toy_kind_plugin" not in sys.modules
    cfg = _compose(plugin, ds_root, tmp_path / "out", "method=rag", "backbone=toy_shout")
    conf = validate_config(cfg)
    assert build_backbone(conf.backbone).name == "shouty!!"
    with pytest.raises(ConfigError) as e:
        validate_config(_compose(plugin, ds_root, tmp_path / "out", "method=rag", "backbone=toy_shout",
                                 "+backbone.volumme=9"))
    assert e.value.key == "backbone.volumme" and "did you mean 'volume'?" in str(e.value)
    with pytest.raises(ConfigError, match=r"^config error: backbone\.volume must be an integer >= 1 \(got 0\)"):
        validate_config(_compose(plugin, ds_root, tmp_path / "out", "method=rag", "backbone=toy_shout",
                                 "backbone.volume=0"))


def test_an_entry_point_to_a_missing_module_is_a_config_error(tmp_path, monkeypatch, ds_root):
    site = tmp_path / "site"
    info = site / "broken_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[tkgqa_ray.methods]\nbroken = no_such_module_here:Nope\n")
    monkeypatch.syspath_prepend(str(site))
    METHODS.discover(refresh=True)
    try:
        cfg = _compose(tmp_path, ds_root, tmp_path / "out", "method=llm_only", "method.name=broken", "backbone=symbolic")
        with pytest.raises(ConfigError, match=r"^config error: method\.name cannot be loaded: No module named 'no_such_module_here'"):
            validate_config(cfg)
    finally:
        METHODS.unregister("broken")


def test_every_method_config_file_names_a_registered_method_and_back():
    """Built-in methods register with ``@register_method`` in their own module; discovery imports
    ``tkgqa_ray.methods``' modules, so the config files and the registry agree one to one."""
    import yaml

    files = {p.stem: yaml.safe_load(p.read_text())["name"] for p in (CONF_DIR / "method").glob("*.yaml")}
    assert all(stem == name for stem, name in files.items())
    builtin = {n for n in METHODS.names() if method_class(n).__module__.startswith("tkgqa_ray.")}
    assert builtin == set(files) == {"rag", "rag_filter", "llm_only", "scop", "tccrag", "pok"}
    for n in builtin:
        assert method_class(n).name == n


def test_register_method_refuses_a_clash_and_a_nameless_class():
    from tkgqa_ray.methods.base import Method, register_method

    class Other(Method):
        name = "scop"

        def build_stages(self):
            return []

    with pytest.raises(ValueError, match=r"method 'scop' is already registered \(tkgqa_ray\.methods\.scop\.method:SCoP"):
        register_method(Other)

    class Nameless(Method):
        def build_stages(self):
            return []

    with pytest.raises(TypeError, match="own name"):
        register_method(Nameless)


def test_package_discovery_imports_public_modules_only_and_on_first_lookup(tmp_path, monkeypatch):
    """What fills METHODS / KINDS: every module of the package not starting with ``_``, imported
    at the first lookup (not at construction), subpackages included."""
    from tkgqa_ray.registry import Registry

    pkg = tmp_path / "toy_discovery_pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "one.py").write_text("from toy_discovery_pkg import REG\nREG.register('one', 1)\n")
    (pkg / "sub" / "two.py").write_text("from toy_discovery_pkg import REG\nREG.register('two', 2)\n")
    (pkg / "_helper.py").write_text("raise RuntimeError('a private module must not be imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import toy_discovery_pkg

    reg: Registry[int] = Registry("toy", package="toy_discovery_pkg")
    monkeypatch.setattr(toy_discovery_pkg, "REG", reg, raising=False)
    try:
        assert "toy_discovery_pkg.one" not in sys.modules
        assert reg.names() == ["one", "two"] and reg.get("two") == 2
        with pytest.raises(KeyError, match=r"unknown toy 'tow'; did you mean 'two'\?"):
            reg.get("tow")
    finally:
        for m in [m for m in sys.modules if m.startswith("toy_discovery_pkg")]:
            sys.modules.pop(m)
