// For the type checker only: the walker's files are the body of
// `(function (options, httpStatus) { ... })` (see main.js), so these are
// its parameters, not globals.
declare const options: WalkerOptions;
declare const httpStatus: number;
