#pragma once
// An evaluated configuration's record as checkpoint bytes (core/checkpoint/byte_record.hpp):
// every field, the reason text included, read back equal.
#include "analysis/search/search_driver.hpp"
#include "core/checkpoint/byte_record.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API void write_record(ByteWriter& w, const ConfigRecord& r);
TESSERA_API ConfigRecord read_record(ByteReader& r);
// Refuses (ByteReader::fail) an evaluated configuration read back whose values no evaluation
// gives: a flag that is neither 0 nor 1, a knob below 1, a discrete knob out of its range.
TESSERA_API void check_evaluated(ByteReader& r, const EvaluatedConfig& e);

}  // namespace tessera
