"""One module per backbone ``kind`` (see :mod:`tkgqa_ray.backbones.kind`); every module here
whose name does not start with ``_`` is imported when a kind is first looked up."""
