"""The catalogue: one package per paper, each with its objects and a ``claims`` module.

* ``interpolation``   arXiv:2502.02270, exact sequence interpolation with transformers.
* ``focus_dilution``  arXiv:2605.01199, focus and dilution in one-layer transformers.
* ``ddcl_incrt``      arXiv:2604.01880, DDCL-INCRT prototype dictionaries and head growth.
"""
