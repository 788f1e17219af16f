# Sourced by the executor tests: how to start ranks. Open MPI's launcher by its own name (plain
# mpirun may be MPICH's), ranks oversubscribed on small machines, shared memory only.
export OMPI_MCA_btl=self,vader
export OMPI_MCA_hwloc_base_binding_policy=none
launcher=(mpirun.openmpi --oversubscribe)
[[ $(id -u) -eq 0 ]] && launcher+=(--allow-run-as-root)
