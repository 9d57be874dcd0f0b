"""Pure rules engines for TAKI, Tukki Tukki and Tokaido, in the common shape of ENGINES.md."""
