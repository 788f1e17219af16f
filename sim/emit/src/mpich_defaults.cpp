// MPICH's built-in tuning for the collectives a file does not tune: the text of
// maint/tuning/coll/mpir/generic.json (compiled into MPICH as its default selection,
// MPII_coll_generic_json, src/mpi/coll/src/coll_impl.c), one entry a line, in its order. A
// tuning file replaces the whole built-in tree (coll_impl.c reads either the file or
// generic.json, never both), and a collective the file lacks fails MPICH: MPIR_Csel_search()
// (src/mpi/coll/src/csel.c) finds no container and returns NULL, and every
// MPIR_<Coll>_allcomm_auto() asserts on it (maint/gen_coll.py, dump_allcomm_auto_blocking():
// "MPIR_Assert(cnt)"; an "algorithm=" leaf cannot name allcomm_auto, so MPICH's own tree is the
// only way to keep its choice). So every emitted file carries these; the entries of the
// collectives -c asks for (allgather, allreduce, bcast, reduce, reduce_scatter_block, alltoall)
// give way to piccolo's (emit_mpich_json.cpp).
//
// Source: pmodels/mpich, maint/tuning/coll/mpir/generic.json at v4.0.2 (series 4.0) and at
// v4.1.2 (series 4.1); v4.2.3 and v4.3.2 hold a byte-identical copy of v4.1.2's. The two differ in
// one leaf: barrier uses MPIR_Barrier_intra_dissemination in 4.0 and
// MPIR_Barrier_intra_k_dissemination k=2 from 4.1 on. MPICH's copyright notice (COPYRIGHT in
// its sources): "Copyright Notice 1998--2024, Argonne National Laboratory. Permission is hereby
// granted to use, reproduce, prepare derivative works, and to redistribute to others."
#include "mpich_defaults.hpp"

#include <string>

namespace piccolo::mpich {

namespace {

// generic.json up to and after its barrier entry (identical in every series), and the barrier
// entry of each series.
constexpr std::string_view before_barrier = R"({
"collective=bcast":{"comm_type=intra":{"comm_size<8":{"comm_hierarchy=parent":{"avg_msg_size<=0":{"algorithm=MPIR_Bcast_intra_smp":{}},"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_binomial":{}}},"comm_hierarchy=any":{"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_binomial":{}}}},"comm_size=pow2":{"comm_hierarchy=parent":{"avg_msg_size<=0":{"algorithm=MPIR_Bcast_intra_smp":{}},"avg_msg_size<=12288":{"algorithm=MPIR_Bcast_intra_binomial":{}},"avg_msg_size<=524288":{"algorithm=MPIR_Bcast_intra_scatter_recursive_doubling_allgather":{}},"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_scatter_ring_allgather":{}}},"comm_hierarchy=any":{"avg_msg_size<=12288":{"algorithm=MPIR_Bcast_intra_binomial":{}},"avg_msg_size<=524288":{"algorithm=MPIR_Bcast_intra_scatter_recursive_doubling_allgather":{}},"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_scatter_ring_allgather":{}}}},"comm_size=any":{"comm_hierarchy=parent":{"avg_msg_size<=0":{"algorithm=MPIR_Bcast_intra_smp":{}},"avg_msg_size<=12288":{"algorithm=MPIR_Bcast_intra_binomial":{}},"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_scatter_ring_allgather":{}}},"comm_hierarchy=any":{"avg_msg_size<=12288":{"algorithm=MPIR_Bcast_intra_binomial":{}},"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_scatter_ring_allgather":{}}}}},"comm_type=inter":{"algorithm=MPIR_Bcast_inter_remote_send_local_bcast":{}}},
"collective=allreduce":{"comm_type=intra":{"avg_msg_size<=0":{"is_commutative=yes":{"algorithm=MPIR_Allreduce_intra_smp":{}},"is_commutative=no":{"algorithm=MPIR_Allreduce_intra_recursive_doubling":{}}},"avg_msg_size<=8":{"algorithm=MPIR_Allreduce_intra_recursive_doubling":{}},"avg_msg_size=any":{"is_op_built_in=no":{"algorithm=MPIR_Allreduce_intra_recursive_doubling":{}},"is_op_built_in=yes":{"count<pow2":{"algorithm=MPIR_Allreduce_intra_recursive_doubling":{}},"count=any":{"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather":{}}}}},"comm_type=inter":{"algorithm=MPIR_Allreduce_inter_reduce_exchange_bcast":{}}},
"collective=allgather":{"comm_type=intra":{"comm_size=pow2":{"total_msg_size<524288":{"algorithm=MPIR_Allgather_intra_recursive_doubling":{}},"total_msg_size=any":{"algorithm=MPIR_Allgather_intra_ring":{}}},"comm_size=any":{"total_msg_size<81920":{"algorithm=MPIR_Allgather_intra_brucks":{}},"total_msg_size=any":{"algorithm=MPIR_Allgather_intra_ring":{}}}},"comm_type=inter":{"algorithm=MPIR_Allgather_inter_local_gather_remote_bcast":{}}},
"collective=allgatherv":{"comm_type=intra":{"comm_size=pow2":{"total_msg_size<524288":{"algorithm=MPIR_Allgatherv_intra_recursive_doubling":{}},"total_msg_size=any":{"algorithm=MPIR_Allgatherv_intra_ring":{}}},"comm_size=any":{"total_msg_size<81920":{"algorithm=MPIR_Allgatherv_intra_brucks":{}},"total_msg_size=any":{"algorithm=MPIR_Allgatherv_intra_ring":{}}}},"comm_type=inter":{"algorithm=MPIR_Allgatherv_inter_remote_gather_local_bcast":{}}},
"collective=reduce":{"comm_type=intra":{"comm_hierarchy=parent":{"avg_msg_size<=0":{"is_commutative=yes":{"algorithm=MPIR_Reduce_intra_smp":{}},"is_commutative=no":{"algorithm=MPIR_Reduce_intra_binomial":{}}},"avg_msg_size<=2048":{"algorithm=MPIR_Reduce_intra_binomial":{}},"avg_msg_size=any":{"is_op_built_in=yes":{"count<pow2":{"algorithm=MPIR_Reduce_intra_binomial":{}},"count=any":{"algorithm=MPIR_Reduce_intra_reduce_scatter_gather":{}}},"is_op_built_in=no":{"algorithm=MPIR_Reduce_intra_binomial":{}}}},"comm_hierarchy=any":{"avg_msg_size<=2048":{"algorithm=MPIR_Reduce_intra_binomial":{}},"avg_msg_size=any":{"is_op_built_in=yes":{"count<pow2":{"algorithm=MPIR_Reduce_intra_binomial":{}},"count=any":{"algorithm=MPIR_Reduce_intra_reduce_scatter_gather":{}}},"is_op_built_in=no":{"algorithm=MPIR_Reduce_intra_binomial":{}}}}},"comm_type=inter":{"algorithm=MPIR_Reduce_inter_local_reduce_remote_send":{}}},
"collective=reduce_scatter":{"comm_type=intra":{"is_commutative=yes":{"total_msg_size<524288":{"algorithm=MPIR_Reduce_scatter_intra_recursive_halving":{}},"total_msg_size=any":{"algorithm=MPIR_Reduce_scatter_intra_pairwise":{}}},"is_commutative=no":{"is_block_regular=yes":{"comm_size=pow2":{"algorithm=MPIR_Reduce_scatter_intra_noncommutative":{}},"comm_size=any":{"algorithm=MPIR_Reduce_scatter_intra_recursive_doubling":{}}},"is_block_regular=no":{"algorithm=MPIR_Reduce_scatter_intra_recursive_doubling":{}}}},"comm_type=inter":{"algorithm=MPIR_Reduce_scatter_inter_remote_reduce_local_scatter":{}}},
"collective=reduce_scatter_block":{"comm_type=intra":{"is_commutative=yes":{"total_msg_size<524288":{"algorithm=MPIR_Reduce_scatter_block_intra_recursive_halving":{}},"total_msg_size=any":{"algorithm=MPIR_Reduce_scatter_block_intra_pairwise":{}}},"is_commutative=no":{"comm_size=pow2":{"algorithm=MPIR_Reduce_scatter_block_intra_noncommutative":{}},"comm_size=any":{"algorithm=MPIR_Reduce_scatter_block_intra_recursive_doubling":{}}}},"comm_type=inter":{"algorithm=MPIR_Reduce_scatter_block_inter_remote_reduce_local_scatter":{}}},
"collective=gather":{"comm_type=intra":{"algorithm=MPIR_Gather_intra_binomial":{}},"comm_type=inter":{"total_msg_size<2048":{"algorithm=MPIR_Gather_inter_local_gather_remote_send":{}},"total_msg_size=any":{"algorithm=MPIR_Gather_inter_linear":{}}}},
"collective=scatter":{"comm_type=intra":{"algorithm=MPIR_Scatter_intra_binomial":{}},"comm_type=inter":{"total_msg_size<2048":{"algorithm=MPIR_Scatter_inter_remote_send_local_scatter":{}},"total_msg_size=any":{"algorithm=MPIR_Scatter_inter_linear":{}}}},
"collective=gatherv":{"algorithm=MPIR_Gatherv_allcomm_linear":{}},
"collective=scatterv":{"algorithm=MPIR_Scatterv_allcomm_linear":{}},
"collective=scan":{"comm_type=intra":{"is_node_consecutive=yes":{"algorithm=MPIR_Scan_intra_smp":{}},"is_node_consecutive=no":{"algorithm=MPIR_Scan_intra_recursive_doubling":{}}},"comm_type=inter":{"algorithm=MPIR_Scan_intra_smp":{}}},
"collective=exscan":{"algorithm=MPIR_Exscan_intra_recursive_doubling":{}},
)";
constexpr std::string_view barrier_4_0 =
    R"("collective=barrier":{"comm_type=intra":{"comm_hierarchy=parent":{"algorithm=MPIR_Barrier_intra_smp":{}},"comm_hierarchy=any":{"algorithm=MPIR_Barrier_intra_dissemination":{}}},"comm_type=inter":{"algorithm=MPIR_Barrier_inter_bcast":{}}},)";
constexpr std::string_view barrier_4_1 =
    R"("collective=barrier":{"comm_type=intra":{"comm_hierarchy=parent":{"algorithm=MPIR_Barrier_intra_smp":{}},"comm_hierarchy=any":{"algorithm=MPIR_Barrier_intra_k_dissemination":{"k=2":{}}}},"comm_type=inter":{"algorithm=MPIR_Barrier_inter_bcast":{}}},)";
constexpr std::string_view after_barrier = R"(
"collective=alltoall":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Alltoall_intra_pairwise_sendrecv_replace":{}},"is_sendbuf_inplace=no":{"comm_size<8":{"avg_msg_size<=32768":{"algorithm=MPIR_Alltoall_intra_scattered":{}},"avg_msg_size=any":{"algorithm=MPIR_Alltoall_intra_pairwise":{}}},"comm_size=any":{"avg_msg_size<=256":{"algorithm=MPIR_Alltoall_intra_brucks":{}},"avg_msg_size<=32768":{"algorithm=MPIR_Alltoall_intra_scattered":{}},"avg_msg_size=any":{"algorithm=MPIR_Alltoall_intra_pairwise":{}}}}},"comm_type=inter":{"algorithm=MPIR_Alltoall_inter_pairwise_exchange":{}}},
"collective=alltoallv":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Alltoallv_intra_pairwise_sendrecv_replace":{}},"is_sendbuf_inplace=no":{"algorithm=MPIR_Alltoallv_intra_scattered":{}}},"comm_type=inter":{"algorithm=MPIR_Alltoallv_inter_pairwise_exchange":{}}},
"collective=alltoallw":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Alltoallw_intra_pairwise_sendrecv_replace":{}},"is_sendbuf_inplace=no":{"algorithm=MPIR_Alltoallw_intra_scattered":{}}},"comm_type=inter":{"algorithm=MPIR_Alltoallw_inter_pairwise_exchange":{}}},
"collective=neighbor_allgather":{"algorithm=MPIR_Neighbor_allgather_allcomm_nb":{}},
"collective=neighbor_allgatherv":{"algorithm=MPIR_Neighbor_allgatherv_allcomm_nb":{}},
"collective=neighbor_alltoall":{"algorithm=MPIR_Neighbor_alltoall_allcomm_nb":{}},
"collective=neighbor_alltoallv":{"algorithm=MPIR_Neighbor_alltoallv_allcomm_nb":{}},
"collective=neighbor_alltoallw":{"algorithm=MPIR_Neighbor_alltoallw_allcomm_nb":{}},
"collective=ibarrier":{"comm_type=intra":{"algorithm=MPIR_Ibarrier_intra_sched_recursive_doubling":{}},"comm_type=inter":{"algorithm=MPIR_Ibarrier_inter_sched_bcast":{}}},
"collective=iallreduce":{"comm_type=intra":{"avg_msg_size<=2048":{"algorithm=MPIR_Iallreduce_intra_sched_recursive_doubling":{}},"avg_msg_size=any":{"is_op_built_in=no":{"algorithm=MPIR_Iallreduce_intra_sched_recursive_doubling":{}},"is_op_built_in=yes":{"count<pow2":{"algorithm=MPIR_Iallreduce_intra_sched_recursive_doubling":{}},"count=any":{"algorithm=MPIR_Iallreduce_intra_sched_reduce_scatter_allgather":{}}}}},"comm_type=inter":{"algorithm=MPIR_Iallreduce_inter_sched_remote_reduce_local_bcast":{}}},
"collective=iallgather":{"comm_type=intra":{"comm_size=pow2":{"total_msg_size<524288":{"algorithm=MPIR_Iallgather_intra_sched_recursive_doubling":{}},"total_msg_size=any":{"algorithm=MPIR_Iallgather_intra_sched_ring":{}}},"comm_size=any":{"total_msg_size<81920":{"algorithm=MPIR_Iallgather_intra_sched_brucks":{}},"total_msg_size=any":{"algorithm=MPIR_Iallgather_intra_sched_ring":{}}}},"comm_type=inter":{"algorithm=MPIR_Iallgather_inter_sched_local_gather_remote_bcast":{}}},
"collective=iallgatherv":{"comm_type=intra":{"comm_size=pow2":{"total_msg_size<524288":{"algorithm=MPIR_Iallgatherv_intra_sched_recursive_doubling":{}},"total_msg_size=any":{"algorithm=MPIR_Iallgatherv_intra_sched_ring":{}}},"comm_size=any":{"total_msg_size<81920":{"algorithm=MPIR_Iallgatherv_intra_sched_brucks":{}},"total_msg_size=any":{"algorithm=MPIR_Iallgatherv_intra_sched_ring":{}}}},"comm_type=inter":{"algorithm=MPIR_Iallgatherv_inter_sched_remote_gather_local_bcast":{}}},
"collective=ibcast":{"comm_type=intra":{"comm_hierarchy=parent":{"algorithm=MPIR_Ibcast_intra_sched_smp":{}},"comm_hierarchy=any":{"comm_size<8":{"avg_msg_size=any":{"algorithm=MPIR_Ibcast_intra_sched_binomial":{}}},"comm_size=pow2":{"avg_msg_size<12288":{"algorithm=MPIR_Ibcast_intra_sched_binomial":{}},"avg_msg_size<524288":{"algorithm=MPIR_Ibcast_intra_sched_scatter_recursive_doubling_allgather":{}},"avg_msg_size=any":{"algorithm=MPIR_Ibcast_intra_sched_scatter_ring_allgather":{}}},"comm_size=any":{"avg_msg_size<12288":{"algorithm=MPIR_Ibcast_intra_sched_binomial":{}},"avg_msg_size=any":{"algorithm=MPIR_Ibcast_intra_sched_scatter_ring_allgather":{}}}}},"comm_type=inter":{"algorithm=MPIR_Ibcast_inter_sched_flat":{}}},
"collective=ireduce":{"comm_type=intra":{"comm_hierarchy=parent":{"is_commutative=yes":{"algorithm=MPIR_Ireduce_intra_sched_smp":{}},"is_commutative=no":{"algorithm=MPIR_Ireduce_intra_sched_binomial":{}}},"comm_hierarchy=any":{"avg_msg_size<=2048":{"algorithm=MPIR_Ireduce_intra_sched_binomial":{}},"avg_msg_size=any":{"is_op_built_in=yes":{"count<pow2":{"algorithm=MPIR_Ireduce_intra_sched_binomial":{}},"count=any":{"algorithm=MPIR_Ireduce_intra_sched_reduce_scatter_gather":{}}},"is_op_built_in=no":{"algorithm=MPIR_Ireduce_intra_sched_binomial":{}}}}},"comm_type=inter":{"algorithm=MPIR_Ireduce_inter_sched_local_reduce_remote_send":{}}},
"collective=ireduce_scatter":{"comm_type=intra":{"is_commutative=yes":{"total_msg_size<524288":{"algorithm=MPIR_Ireduce_scatter_intra_sched_recursive_halving":{}},"total_msg_size=any":{"algorithm=MPIR_Ireduce_scatter_intra_sched_pairwise":{}}},"is_commutative=no":{"is_block_regular=yes":{"comm_size=pow2":{"algorithm=MPIR_Ireduce_scatter_intra_sched_noncommutative":{}},"comm_size=any":{"algorithm=MPIR_Ireduce_scatter_intra_sched_recursive_doubling":{}}},"is_block_regular=no":{"algorithm=MPIR_Ireduce_scatter_intra_sched_recursive_doubling":{}}}},"comm_type=inter":{"algorithm=MPIR_Ireduce_scatter_inter_sched_remote_reduce_local_scatterv":{}}},
"collective=igather":{"comm_type=intra":{"algorithm=MPIR_Igather_intra_sched_binomial":{}},"comm_type=inter":{"total_msg_size<2048":{"algorithm=MPIR_Igather_inter_sched_short":{}},"total_msg_size=any":{"algorithm=MPIR_Igather_inter_sched_long":{}}}},
"collective=iscatter":{"comm_type=intra":{"algorithm=MPIR_Iscatter_intra_sched_binomial":{}},"comm_type=inter":{"total_msg_size<2048":{"algorithm=MPIR_Iscatter_inter_sched_remote_send_local_scatter":{}},"total_msg_size=any":{"algorithm=MPIR_Iscatter_inter_sched_linear":{}}}},
"collective=igatherv":{"algorithm=MPIR_Igatherv_allcomm_sched_linear":{}},
"collective=iscatterv":{"algorithm=MPIR_Iscatterv_allcomm_sched_linear":{}},
"collective=iexscan":{"algorithm=MPIR_Iexscan_intra_sched_recursive_doubling":{}},
"collective=ialltoall":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Ialltoall_intra_sched_inplace":{}},"is_sendbuf_inplace=no":{"comm_size<8":{"avg_msg_size<=32768":{"algorithm=MPIR_Ialltoall_intra_sched_permuted_sendrecv":{}},"avg_msg_size=any":{"algorithm=MPIR_Ialltoall_intra_sched_pairwise":{}}},"comm_size=any":{"avg_msg_size<=2048":{"algorithm=MPIR_Ialltoall_intra_sched_brucks":{}},"avg_msg_size<=32768":{"algorithm=MPIR_Ialltoall_intra_sched_permuted_sendrecv":{}},"avg_msg_size=any":{"algorithm=MPIR_Ialltoall_intra_sched_pairwise":{}}}}},"comm_type=inter":{"algorithm=MPIR_Ialltoall_inter_sched_pairwise_exchange":{}}},
"collective=ialltoallv":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Ialltoallv_intra_sched_inplace":{}},"is_sendbuf_inplace=no":{"algorithm=MPIR_Ialltoallv_intra_sched_blocked":{}}},"comm_type=inter":{"algorithm=MPIR_Ialltoallv_inter_sched_pairwise_exchange":{}}},
"collective=ialltoallw":{"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Ialltoallw_intra_sched_inplace":{}},"is_sendbuf_inplace=no":{"algorithm=MPIR_Ialltoallw_intra_sched_blocked":{}}},"comm_type=inter":{"algorithm=MPIR_Ialltoallw_inter_sched_pairwise_exchange":{}}},
"collective=ireduce_scatter_block":{"comm_type=intra":{"is_commutative=yes":{"total_msg_size<524288":{"algorithm=MPIR_Ireduce_scatter_block_intra_sched_recursive_halving":{}},"total_msg_size=any":{"algorithm=MPIR_Ireduce_scatter_block_intra_sched_pairwise":{}}},"is_commutative=no":{"comm_size=pow2":{"algorithm=MPIR_Ireduce_scatter_block_intra_sched_noncommutative":{}},"comm_size=any":{"algorithm=MPIR_Ireduce_scatter_block_intra_sched_recursive_doubling":{}}}},"comm_type=inter":{"algorithm=MPIR_Ireduce_scatter_block_inter_sched_remote_reduce_local_scatterv":{}}},
"collective=iscan":{"comm_hierarchy=parent":{"algorithm=MPIR_Iscan_intra_sched_smp":{}},"comm_hierarchy=any":{"algorithm=MPIR_Iscan_intra_sched_recursive_doubling":{}}},
"collective=ineighbor_allgather":{"algorithm=MPIR_Ineighbor_allgather_allcomm_sched_linear":{}},
"collective=ineighbor_allgatherv":{"algorithm=MPIR_Ineighbor_allgatherv_allcomm_sched_linear":{}},
"collective=ineighbor_alltoall":{"algorithm=MPIR_Ineighbor_alltoall_allcomm_sched_linear":{}},
"collective=ineighbor_alltoallv":{"algorithm=MPIR_Ineighbor_alltoallv_allcomm_sched_linear":{}},
"collective=ineighbor_alltoallw":{"algorithm=MPIR_Ineighbor_alltoallw_allcomm_sched_linear":{}}
})";

std::string joined(std::string_view barrier) {
    std::string text(before_barrier);
    text += barrier;
    text += after_barrier;
    return text;
}

}  // namespace

std::string_view defaults_4_0() {
    static const std::string text = joined(barrier_4_0);  // built once, never changed
    return text;
}

std::string_view defaults_4_1() {
    static const std::string text = joined(barrier_4_1);
    return text;
}

}  // namespace piccolo::mpich
