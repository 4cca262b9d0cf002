"""Runs on the reconstructed model: three-stage pre-training and fine-tuning (``training``), the shared cached
pre-trained models (``pretrained``), pre-training measurements shared by several claims (``pt_runs``), the
fine-tuning / OOD protocol and its sweeps (``ood_sweeps``, ``protocol``), and the App. A experiment (``table3``)."""
