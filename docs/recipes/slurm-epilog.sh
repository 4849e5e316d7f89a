#!/bin/sh
# Slurm epilog (slurm.conf: Epilog=/etc/slurm/epilog.d/oomdiag.sh, or one
# file of an Epilog directory) that acts on `oomdiag run --exit-by-decision`
# (docs/decisions.md).  The job script runs its work as
#     oomdiag run --exit-by-decision -- srun python train.py
# and is submitted with --requeue (or JobRequeue=1 in slurm.conf).
# SLURM_JOB_EXIT_CODE2 is "EXIT:SIGNAL" (the Prolog and Epilog Guide).
code=${SLURM_JOB_EXIT_CODE2%%:*}
case $code in
75) # retry: transient, the same job may pass
    scontrol requeue "$SLURM_JOB_ID" ;;
76) # retry-elsewhere: this node or GPU is at fault; drain it, then requeue
    scontrol update NodeName="$SLURMD_NODENAME" State=DRAIN Reason="oomdiag: job $SLURM_JOB_ID retry-elsewhere"
    scontrol requeue "$SLURM_JOB_ID" ;;
77 | 78) # change-and-retry, stop: a person acts; the job stays failed
    ;;
esac
exit 0
