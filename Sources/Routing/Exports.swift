// Routing's API reads and writes JSON (a table's document, parameters and entries as JSON), so
// a module that imports Routing sees the JSON types as well.
@_exported import JSON
