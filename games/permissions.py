from rest_framework import permissions


class ReadOnlyOrStaffWithModelPermission(permissions.DjangoModelPermissionsOrAnonReadOnly):
    """Anyone may read; writing takes a staff account holding the model's permission."""

    anonymous_reads = True  # the schema says reads need no authentication

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        user = request.user
        if not (user and user.is_authenticated and user.is_staff):
            return False
        return super().has_permission(request, view)
