// For the type checker only: the walker's files are the body of
// `(function (options, httpStatus) { ... })` (see main.js), so these are
// its parameters, not globals.
declare const options: WalkerRequest;
declare const httpStatus: number;
