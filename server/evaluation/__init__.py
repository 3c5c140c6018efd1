"""Model evaluations on exported dialogs: tasks, metrics, model loaders and job launchers.

Heavy dependencies (torch, transformers, sacrebleu, submitit, ray) come from the ``ml`` extra
and are imported only where a task or backend needs them, so ``avd`` itself stays light.
"""
