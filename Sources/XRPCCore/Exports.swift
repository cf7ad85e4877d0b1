// Generated code imports this module alone: the identifiers and data values it is written in come
// with it.
@_exported import AtprotoData
@_exported import AtprotoSyntax
@_exported import HTTPMessages
@_exported import LexiconValidation
