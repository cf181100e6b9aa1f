#include "studies/documents/scope_documents.hpp"

namespace tessera {

const char* scope_name(Scope scope) { return scope == Scope::attention ? "attention" : "full"; }

void add_scope_documents(nlohmann::json& doc, Scope own, const std::vector<Scope>& scopes,
                         const ScopeDocument& document_of) {
  nlohmann::json by = nlohmann::json::object();
  for (const Scope scope : scopes) {
    const char* name = scope_name(scope);
    if (scope == own || by.contains(name)) continue;
    nlohmann::json other = document_of(scope);
    other["scope"] = name;
    by[name] = std::move(other);
  }
  if (by.empty()) return;  // the document as the study wrote it (no scopes: no new field)
  doc["scope"] = scope_name(own);
  doc["by_scope"] = std::move(by);
}

}  // namespace tessera
