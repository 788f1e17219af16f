#pragma once
// The overhead models of a replay, one per level (Level::overhead: a price names its level's):
// each step of a transfer that depends on the model goes to the model of the level pricing it.
// With one model the steps call it directly, without a test. The models' pools (slot pools,
// ports, the processor) are the engine's; a grant of one goes to the model that serves it.

#include <tuple>
#include <utility>

#include "engine_pools.hpp"
#include "piccolo/core/assert.hpp"
#include "pricing.hpp"

namespace piccolo::detail {

template <class... Models>
class LevelOverheads {
  public:
    // Offload overheads alone (the lean instantiation: transfer_engine.hpp).
    static constexpr bool offload_only = ((Models::kind == OverheadModel::offload) && ...);

    LevelOverheads(Pools& pools, std::size_t ranks, std::size_t tasks, const Machine& m,
                   const SimOptions& o)
        : models_(Models(pools, ranks, tasks, m, o)...) {}

    // step(model) with the model of the level that prices x.
    template <class Step>
    decltype(auto) with(const Price& x, Step&& step) {
        return with_model<0>(x, step);
    }

    // Pool P granted a slot to t: the model that serves P's grants.
    template <Pool P, class E>
    void granted(E& e, TaskId t, SimTime start, SimTime since, SlotRef slot) {
        granted_by<P, 0>(e, t, start, since, slot);
    }

    // RECEIVED (t's reception is over): the model of t's level, whose receptions end in one.
    template <class E>
    void received(E& e, TaskId t, SimTime now) {
        with(e.price(t), [&](auto& model) {
            if constexpr (requires { model.received(e, t, now); }) {
                model.received(e, t, now);
            } else {
                PICCOLO_ASSERT(!"RECEIVED for a model whose receptions end without one");
            }
        });
    }

  private:
    template <std::size_t I, class Step>
    decltype(auto) with_model(const Price& x, Step& step) {
        using Model = std::tuple_element_t<I, std::tuple<Models...>>;
        if constexpr (I + 1 == sizeof...(Models)) {
            PICCOLO_ASSERT(x.overhead == Model::kind);
            return step(std::get<I>(models_));
        } else {
            if (x.overhead == Model::kind) return step(std::get<I>(models_));
            return with_model<I + 1>(x, step);
        }
    }

    template <Pool P, std::size_t I, class E>
    void granted_by(E& e, TaskId t, SimTime start, SimTime since, SlotRef slot) {
        if constexpr (I == sizeof...(Models)) {
            PICCOLO_ASSERT(!"a grant of a pool that no overhead model of this replay serves");
        } else if constexpr (std::tuple_element_t<I, std::tuple<Models...>>::grants(P)) {
            std::get<I>(models_).template granted<P>(e, t, start, since, slot);
        } else {
            granted_by<P, I + 1>(e, t, start, since, slot);
        }
    }

    std::tuple<Models...> models_;
};

}  // namespace piccolo::detail
