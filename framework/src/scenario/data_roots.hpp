#pragma once
// The data roots: the folders whose models/, machines/ and scenarios/ give the names a
// scenario may use (`machine: dgx-h100`). In order: LoadOptions::data_root alone when set
// (the tests' fixtures); otherwise each folder of TESSERA_DATA_DIR (':'-separated), then the
// shipped data (<dir of tessera>/../share/tessera when installed, else the source tree). A
// name is looked up root by root, so TESSERA_DATA_DIR adds machines and models in front of
// the shipped ones (and may shadow one of the same name) instead of hiding them.
#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API std::vector<std::string> data_roots(const LoadOptions& options);

// The shipped data: <dir of tessera>/../share/tessera when it holds models/, else the source
// tree, else ".".
TESSERA_API std::string shipped_data_root();

}  // namespace tessera
