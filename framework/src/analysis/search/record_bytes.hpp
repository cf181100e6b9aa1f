#pragma once
// An evaluated configuration's record as checkpoint bytes (core/checkpoint/byte_record.hpp):
// every field, the reason text included, read back equal.
#include "analysis/search/search_driver.hpp"
#include "core/checkpoint/byte_record.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API void write_record(ByteWriter& w, const ConfigRecord& r);
TESSERA_API ConfigRecord read_record(ByteReader& r);

}  // namespace tessera
