"""referee: a camera referee for Tuki, and rules engines for TAKI, Tukki Tukki and Tokaido."""

__version__ = "0.1.0"
