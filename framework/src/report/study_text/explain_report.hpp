#pragma once
// `tessera explain`'s text: one configuration stage by stage, for people (its JSON document:
// studies/documents/explain_document.hpp).
#include <ostream>

#include "studies/documents/explain_document.hpp"  // explain_json
#include "studies/entries/explain_entry.hpp"
#include "studies/json/config_json.hpp"  // config_json
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// width > 0: the stage table fitted to `width` columns (TextTable: byte and FLOP columns, then
// the per-occurrence visible time, given up first, and a note says so) and the configuration and
// memory lines broken to it; the caller fits the remaining prose (fit_lines). 0: everything as is.
// `study`: the study's description; `result`: the configuration, its evaluation and what the study
// computed for the text (studies/entries/explain_entry.hpp).
TESSERA_API void print_explain(std::ostream& os, const StudyDescription& study,
                               const studies::ExplainResult& result, std::size_t width = 0);

}  // namespace tessera
