// The app-facing runtime: one import for what README shows. Each layer is a module of its own (see
// Package.swift), and an app may import a lower one alone; this module only re-exports them.
@_exported import AtprotoData
@_exported import AtprotoSyntax
@_exported import HTTPTransport
@_exported import XRPCAgents
@_exported import XRPCCore
@_exported import XRPCWebSockets
