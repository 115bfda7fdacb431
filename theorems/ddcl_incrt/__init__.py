"""arXiv:2604.01880, "DDCL-INCRT: A Self-Organising Transformer with Hierarchical Prototype Structure".

Spec: the toolkit's DDCL-INCRT specification (claims ``ddcl.*``).  Only the paper's abstract was
available; every claim states the reading under which it is checked.
"""
