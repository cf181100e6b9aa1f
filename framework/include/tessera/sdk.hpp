#pragma once
// Everything a plugin may include, in one header.
#include "tessera/error.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/physics/collectives.hpp"
#include "tessera/physics/moe_load.hpp"
#include "tessera/physics/shards.hpp"
#include "tessera/physics/stage_timing.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/physics/tp_overlap.hpp"
#include "tessera/plugin/descriptor.hpp"
