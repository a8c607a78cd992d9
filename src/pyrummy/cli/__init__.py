"""The ``pyrummy`` command line: one module per subcommand."""
