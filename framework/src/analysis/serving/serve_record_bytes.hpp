#pragma once
// A serving point's record as bytes (core/checkpoint/byte_record.hpp), for a serving study's
// work unit computed in another process (an MPI rank): every field read back equal; the serving
// plugin's static reason text (ServingMetrics::infeasible) travels as text and comes back as a
// string this process keeps for its lifetime.
#include <vector>

#include "analysis/serving/serve_study.hpp"
#include "core/checkpoint/byte_record.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API void write_serve_record(ByteWriter& w, const ServeRecord& r);
TESSERA_API ServeRecord read_serve_record(ByteReader& in);
TESSERA_API void write_serve_records(ByteWriter& w, const std::vector<ServeRecord>& records);
TESSERA_API std::vector<ServeRecord> read_serve_records(ByteReader& in);

}  // namespace tessera
